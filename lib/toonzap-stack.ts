import { Lazy, Stack, type StackProps } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { Api } from './api';
import type { EnvConfig } from './config';
import { EngineEndpoint } from './engine-endpoint';
import { OrderPipeline } from './order-pipeline';
import { Pipelines } from './pipelines';
import type { Access } from './routes';
import { Site } from './site';
import { ENV, TABLES, type TableName, tableEnvVar } from '../domain/wiring';
import { Storage } from './storage';

export interface ToonZapStackProps extends StackProps {
  readonly config: EnvConfig;
}

export class ToonZapStack extends Stack {
  readonly storage: Storage;
  readonly engine: EngineEndpoint;
  readonly pipelines: Pipelines;
  readonly orderPipeline: OrderPipeline;
  readonly api: Api;
  readonly site: Site;
  private readonly config: EnvConfig;
  private stripeSecret?: secretsmanager.ISecret;

  constructor(scope: Construct, id: string, props: ToonZapStackProps) {
    super(scope, id, props);
    const { config } = props;
    this.config = config;

    let site: Site | undefined;
    this.storage = new Storage(this, 'Storage', {
      config,
      corsOrigins: [
        Lazy.string({ produce: () => `https://${site?.distribution.distributionDomainName}` }),
        ...(config.siteUrl ? [config.siteUrl] : []),
      ],
    });
    this.engine = new EngineEndpoint(this, 'Engine', { config, media: this.storage.media });

    // Every function sees the same settings; only route functions also learn the state machines' ARNs
    // (task functions must not, or the machines would depend on themselves).
    const environment: Record<string, string> = {
      [ENV.mediaBucket]: this.storage.media.bucketName,
      [ENV.brandName]: config.brandName,
      [ENV.paymentMode]: config.paymentMode,
      [ENV.stripePublishableKey]: config.stripePublishableKey ?? '',
      [ENV.uploadUrlTtlSeconds]: String(config.uploadUrlTtlSeconds),
      [ENV.imageUrlTtlSeconds]: String(config.imageUrlTtlSeconds),
      [ENV.moderationMinConfidence]: String(config.moderationMinConfidence),
      [ENV.engineEndpoint]: this.engine.endpointName,
      [ENV.mailFrom]: config.mailFrom,
      [ENV.stripeSecretName]: config.stripeSecretName,
      // Links in e-mails and Checkout redirects. The distribution is made last (it fronts the API), hence Lazy;
      // functions may depend on it, the distribution depends only on the HTTP API, so there is no cycle.
      [ENV.siteUrl]: config.siteUrl ?? Lazy.string({ produce: () => `https://${site?.distribution.distributionDomainName}` }),
    };
    for (const name of Object.keys(TABLES) as TableName[]) {
      environment[tableEnvVar(name)] = this.storage.tables[name].tableName;
    }

    const grant = (fn: lambda.Function, access: readonly Access[]) => this.grant(fn, access);
    this.pipelines = new Pipelines(this, 'Pipelines', { environment, grant });
    this.orderPipeline = new OrderPipeline(this, 'OrderPipeline', { environment, grant });
    this.api = new Api(this, 'Api', {
      environment: {
        ...environment,
        [ENV.jobsMachineArn]: this.pipelines.jobsMachine.stateMachineArn,
        [ENV.orderMachineArn]: this.orderPipeline.machine.stateMachineArn,
      },
      grant,
    });
    site = new Site(this, 'Site', { httpApi: this.api.httpApi });
    this.site = site;
  }

  /** The one place where declared access becomes IAM permissions. */
  private grant(fn: lambda.Function, access: readonly Access[]): void {
    const { tables, media } = this.storage;
    for (const a of access) {
      const [resource, verb] = a.split(':') as [string, string | undefined];
      if (resource in TABLES) {
        const table = tables[resource as TableName];
        if (verb === 'read') table.grantReadData(fn);
        else table.grantReadWriteData(fn);
      } else if (resource === 'media') {
        if (verb === 'read') media.grantRead(fn);
        else media.grantReadWrite(fn);
      } else if (resource === 'jobs-machine') {
        this.pipelines.jobsMachine.grantStartExecution(fn);
        this.pipelines.jobsMachine.grantRead(fn);
      } else if (resource === 'pipeline') {
        this.orderPipeline.machine.grantStartExecution(fn);
      } else if (resource === 'payments') {
        // Only real Stripe keys live in Secrets Manager; other modes have no secret to read.
        if (this.config.paymentMode === 'stripe') {
          this.stripeSecret ??= secretsmanager.Secret.fromSecretNameV2(this, 'StripeSecret', this.config.stripeSecretName);
          this.stripeSecret.grantRead(fn);
        }
      } else if (resource === 'mail') {
        fn.addToRolePolicy(new iam.PolicyStatement({
          actions: ['ses:SendEmail'],
          resources: [this.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' })],
        }));
      } else if (resource === 'rekognition') {
        fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['rekognition:DetectModerationLabels'], resources: ['*'] }));
      } else if (resource === 'engine') {
        fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['sagemaker:InvokeEndpoint'], resources: [this.engine.endpointArn] }));
      } else {
        throw new Error(`No grant for access "${a}"`);
      }
    }
  }
}
