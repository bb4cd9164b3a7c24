import { Lazy, Stack, type StackProps } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { Api } from './api';
import type { EnvConfig } from './config';
import type { Access } from './routes';
import { Site } from './site';
import { Storage, TABLES, type TableName } from './storage';

export interface ToonZapStackProps extends StackProps {
  readonly config: EnvConfig;
}

/** Environment variable names the handlers read (lambdas/lib/settings.ts is the other side). */
export const tableEnvVar = (name: TableName) => `${name.toUpperCase()}_TABLE`;

export class ToonZapStack extends Stack {
  readonly storage: Storage;
  readonly api: Api;
  readonly site: Site;

  constructor(scope: Construct, id: string, props: ToonZapStackProps) {
    super(scope, id, props);
    const { config } = props;

    let site: Site | undefined;
    this.storage = new Storage(this, 'Storage', {
      config,
      corsOrigins: [
        Lazy.string({ produce: () => `https://${site?.distribution.distributionDomainName}` }),
        ...(config.siteUrl ? [config.siteUrl] : []),
      ],
    });

    const environment: Record<string, string> = {
      MEDIA_BUCKET: this.storage.media.bucketName,
      BRAND_NAME: config.brandName,
      PAYMENT_MODE: config.paymentMode,
      STRIPE_PUBLISHABLE_KEY: config.stripePublishableKey ?? '',
      UPLOAD_URL_TTL_SECONDS: String(config.uploadUrlTtlSeconds),
      IMAGE_URL_TTL_SECONDS: String(config.imageUrlTtlSeconds),
      MODERATION_MIN_CONFIDENCE: String(config.moderationMinConfidence),
    };
    for (const name of Object.keys(TABLES) as TableName[]) {
      environment[tableEnvVar(name)] = this.storage.tables[name].tableName;
    }

    this.api = new Api(this, 'Api', { environment, grant: (fn, access) => this.grant(fn, access) });
    site = new Site(this, 'Site', { httpApi: this.api.httpApi });
    this.site = site;
  }

  /** The one place where declared access becomes IAM permissions. */
  private grant(fn: lambda.Function, access: readonly Access[]): void {
    const { tables, media } = this.storage;
    for (const a of access) {
      const [resource, verb] = a.split(':') as [string, string];
      if (resource in TABLES) {
        const table = tables[resource as TableName];
        if (verb === 'read') table.grantReadData(fn);
        else table.grantReadWriteData(fn);
      } else if (resource === 'media') {
        if (verb === 'read') media.grantRead(fn);
        else media.grantReadWrite(fn);
      }
    }
  }
}
