import { ArnFormat, Duration, Lazy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { type Access, ROUTES, routeId } from '../domain/api-routes';
import { senderIdentities } from '../domain/email';
import { ORIGIN_VERIFY_HEADER } from '../domain/security-headers';
import {
  CAP_SETTINGS,
  ENV,
  MEDIA_PREFIX,
  SERVICE_NAME,
  TABLE_INDEXES,
  TABLES,
  type TableName,
  tableEnvVar,
} from '../domain/wiring';
import { Api } from './api';
import { bedrockModelArns } from './bedrock-access';
import type { EnvConfig } from './config';
import { ENGINE_VARIANT, EngineEndpoint } from './engine-endpoint';
import { handlerFunction } from './functions';
import { Monitoring } from './monitoring';
import { acknowledgeNagFindings } from './nag-acknowledgements';
import { OrderPipeline } from './order-pipeline';
import { Pipelines } from './pipelines';
import { Schedules } from './schedules';
import { Site } from './site';
import { siteResponseHeadersPolicy } from './site-headers';
import { grantMedia, Storage } from './storage';

/** DynamoDB actions every read and every write grant has: all that lambdas/lib calls on most tables. */
export const TABLE_ACTIONS = {
  read: ['dynamodb:GetItem', 'dynamodb:Query'],
  write: ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
} as const;

/**
 * Write actions only some tables need, because some handler calls them there (test/infra/limits.test.ts reads the
 * handlers' DeleteCommand and BatchWriteCommand calls and fails when this list misses one): erasure deletes image
 * records, an owner's hold is released, and an order's share rows are written and deleted in batches. Nothing scans:
 * no grant has Scan.
 */
export const TABLE_WRITE_EXTRAS: Partial<Record<TableName, readonly string[]>> = {
  images: ['dynamodb:DeleteItem'],
  holds: ['dynamodb:DeleteItem'],
  shares: ['dynamodb:BatchWriteItem'],
  // the erasure an address confirms: its sign-ups, and the used link
  signups: ['dynamodb:DeleteItem'],
  erasures: ['dynamodb:DeleteItem'],
};

/**
 * The `idempotency` access: what Powertools' DynamoDB persistence layer calls on the events table, the only access to
 * it (lambdas/lib/idempotency.ts). A conditional PutItem takes a key, GetItem reads the record found there (when the
 * refused put did not return it), UpdateItem stores the result, DeleteItem drops the record of work that failed.
 * test/infra/limits.test.ts reads the calls from the installed package and fails when they differ.
 */
export const IDEMPOTENCY_ACTIONS = [
  'dynamodb:DeleteItem',
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
] as const;

/** How often the CloudFront → API origin secret is replaced (a leaked value works at most this long, plus one period). */
export const ORIGIN_SECRET_ROTATION_DAYS = 30;

export interface ToonZapStackProps extends StackProps {
  readonly config: EnvConfig;
  /** The CloudFront web ACL (lib/edge.ts); without it the distribution has no WAF (the local runtime's synth). */
  readonly webAclArn?: string;
}

/** Every execution of a state machine: `arn:...:execution:<machine name>:*` (executions are named per job). */
function executionArns(stack: Stack, machine: sfn.StateMachine): string {
  return stack.formatArn({
    service: 'states',
    resource: 'execution',
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    resourceName: `${machine.stateMachineName}:*`,
  });
}

/** SES identity ARNs for a sender such as `Brand <no-reply@example.com>`: the address and its domain. */
export function sesIdentityArns(stack: Stack, mailFrom: string): string[] {
  const { address, domain } = senderIdentities(mailFrom);
  return [address, domain].map((identity) =>
    stack.formatArn({ service: 'ses', resource: 'identity', resourceName: identity }),
  );
}

export class ToonZapStack extends Stack {
  readonly storage: Storage;
  readonly engine: EngineEndpoint;
  readonly pipelines: Pipelines;
  readonly orderPipeline: OrderPipeline;
  readonly api: Api;
  readonly schedules: Schedules;
  readonly site: Site;
  readonly monitoring: Monitoring;
  /** Makes a new origin secret every ORIGIN_SECRET_ROTATION_DAYS and sets it as CloudFront's header. */
  readonly originSecretRotation: lambda.Function;
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

    // Every function sees the same settings; only route and scheduled functions also learn the state machines' ARNs
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
      [ENV.supportEmail]: config.supportEmail,
      [ENV.stripeSecretName]: config.stripeSecretName,
      // The renderer per style (lambdas/lib/renderer.ts): styles absent here are rendered by the engine.
      [ENV.generativeStyles]: JSON.stringify(config.generativeStyles),
      [ENV.bedrockRegion]: config.bedrockRegion,
      // The global caps' limits (domain/wiring.ts CAPS), generativePreviewsPerDay among them.
      ...Object.fromEntries(CAP_SETTINGS.map((key) => [ENV[key], String(config[key])])),
      [ENV.bedrockRequestsPerMinute]: String(config.bedrockRequestsPerMinute),
      [ENV.engineMaxConcurrency]: String(config.engineMaxConcurrency),
      [ENV.bedrockUpscaleModelId]: config.bedrockUpscaleModelId ?? '',
      [ENV.orderDeadlineMinutes]: String(config.orderDeadlineMinutes),
      // Links in e-mails and Checkout redirects. The distribution is made last (it fronts the API), hence Lazy;
      // functions may depend on it, the distribution depends only on the HTTP API, so there is no cycle.
      [ENV.siteUrl]:
        config.siteUrl ?? Lazy.string({ produce: () => `https://${site?.distribution.distributionDomainName}` }),
      // Powertools (lambdas/lib/observability.ts): service name, metrics namespace (alarms read it), log level.
      POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
      POWERTOOLS_METRICS_NAMESPACE: config.metricsNamespace,
      POWERTOOLS_LOG_LEVEL: 'INFO',
      // Every origin the site answers on; Checkout returns the visitor to the one they used (lambdas/lib/settings.ts).
      [ENV.siteOrigins]: Lazy.string({
        produce: () =>
          [`https://${site?.distribution.distributionDomainName}`, ...(config.siteUrl ? [config.siteUrl] : [])].join(
            ',',
          ),
      }),
    };
    for (const name of Object.keys(TABLES) as TableName[]) {
      environment[tableEnvVar(name)] = this.storage.tables[name].tableName;
    }

    const grant = (fn: lambda.Function, access: readonly Access[]) => this.grant(fn, access);
    this.pipelines = new Pipelines(this, 'Pipelines', { environment, grant });
    this.orderPipeline = new OrderPipeline(this, 'OrderPipeline', {
      environment,
      grant,
      orderDeadlineMinutes: config.orderDeadlineMinutes,
    });
    // CloudFront sends this secret with every API request and the HTTP wrapper refuses requests without it, so the
    // execute-api endpoint cannot be used to go around CloudFront and its WAF. CloudFront's header is set from it by
    // dynamic reference (an origin's custom header is plain distribution configuration, nowhere else to keep it);
    // the route functions read it from Secrets Manager (lambdas/lib/http.ts), never from their environment.
    const originSecret = new secretsmanager.Secret(this, 'OriginSecret', {
      description: 'ToonZap: header value CloudFront sends to the API (requests without it are refused)',
      generateSecretString: { excludePunctuation: true, passwordLength: 48 },
    });
    // Scheduled functions (the reconciler) work on orders like the routes do, but answer no requests: no origin secret.
    this.schedules = new Schedules(this, 'Schedules', {
      environment: {
        ...environment,
        [ENV.jobsMachineArn]: this.pipelines.jobsMachine.stateMachineArn,
        [ENV.orderMachineArn]: this.orderPipeline.machine.stateMachineArn,
      },
      grant,
    });
    this.api = new Api(this, 'Api', {
      environment: {
        ...environment,
        [ENV.jobsMachineArn]: this.pipelines.jobsMachine.stateMachineArn,
        [ENV.orderMachineArn]: this.orderPipeline.machine.stateMachineArn,
        [ENV.originSecretArn]: originSecret.secretArn,
      },
      grant,
    });
    for (const fn of Object.values(this.api.functions)) originSecret.grantRead(fn);
    // Presigned URLs are virtual-hosted (`<bucket>.s3.<region>.amazonaws.com`). The CSP names S3 in this region, not
    // the bucket: the bucket's name here would close a cycle (bucket CORS → distribution → headers policy → bucket).
    const mediaOrigin = `https://*.s3.${this.region}.${this.urlSuffix}`;
    site = new Site(this, 'Site', {
      httpApi: this.api.httpApi,
      responseHeadersPolicy: siteResponseHeadersPolicy(this, 'SiteHeaders', { mediaOrigin, https: true }),
      apiOriginHeaders: { [ORIGIN_VERIFY_HEADER]: originSecret.secretValue.unsafeUnwrap() },
      logBucket: this.storage.accessLogs,
      webAclArn: props.webAclArn,
      domain:
        config.siteDomain && config.siteCertificateArn
          ? {
              names: [config.siteDomain],
              certificate: acm.Certificate.fromCertificateArn(this, 'SiteCertificate', config.siteCertificateArn),
            }
          : undefined,
    });
    this.site = site;
    this.originSecretRotation = this.rotateOriginSecret(originSecret, site, environment);

    this.monitoring = new Monitoring(this, 'Monitoring', {
      config,
      orderMachine: this.orderPipeline.machine,
      jobsMachine: this.pipelines.jobsMachine,
      engineEndpointName: this.engine.endpointName,
      engineVariantName: ENGINE_VARIANT,
      uploadFunction: this.api.functions[routeId(ROUTES.find((r) => r.handler === 'upload-image')!)],
    });

    acknowledgeNagFindings({
      stack: this,
      api: this.api,
      machines: [
        { machine: this.pipelines.jobsMachine, functions: Object.values(this.pipelines.functions) },
        { machine: this.orderPipeline.machine, functions: Object.values(this.orderPipeline.functions) },
      ],
      jobsMachine: this.pipelines.jobsMachine,
      mediaBucket: this.storage.media,
      siteBucket: site.bucket,
      engineRole: this.engine.role,
      originSecretRotation: this.originSecretRotation,
      alarmTopic: this.monitoring.topic,
      distribution: site.distribution,
      hasCertificate: Boolean(config.siteCertificateArn),
      describesJobs: ROUTES.filter((r) => r.access.includes('jobs-machine:read')).map(
        (r) => this.api.functions[routeId(r)].role!,
      ),
      orderMachine: this.orderPipeline.machine,
      scheduled: Object.values(this.schedules.functions),
    });
  }

  /**
   * Rotation of the origin secret (lambdas/rotation/origin-secret.ts): Secrets Manager calls it every
   * ORIGIN_SECRET_ROTATION_DAYS; it promotes a new value and then sets it as the distribution's origin header. The
   * API accepts the current and the previous value, so the minutes CloudFront takes to send the new one refuse
   * nothing. A deploy after a rotation sets the header from the secret's current value: the same one.
   */
  private rotateOriginSecret(
    secret: secretsmanager.Secret,
    site: Site,
    environment: Record<string, string>,
  ): lambda.Function {
    const fn = handlerFunction(this, 'OriginSecretRotation', {
      entry: 'lambdas/rotation/origin-secret.ts',
      // The settings every function sees (it reads none of the tables or buckets named there: no grant for them).
      environment: { ...environment, [ENV.distributionId]: site.distribution.distributionId },
      timeoutSeconds: 60,
    });
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['cloudfront:GetDistributionConfig', 'cloudfront:UpdateDistribution'],
        resources: [
          this.formatArn({
            service: 'cloudfront',
            region: '',
            resource: 'distribution',
            resourceName: site.distribution.distributionId,
          }),
        ],
      }),
    );
    secret.addRotationSchedule('Rotation', {
      rotationLambda: fn,
      automaticallyAfter: Duration.days(ORIGIN_SECRET_ROTATION_DAYS),
    });
    return fn;
  }

  /** The one place where declared access becomes IAM permissions. */
  private grant(fn: lambda.Function, access: readonly Access[]): void {
    const { tables, media } = this.storage;
    for (const a of access) {
      const [resource, verb] = a.split(':') as [string, string | undefined];
      if (resource in TABLES) {
        const name = resource as TableName;
        // Only what the handlers call (lambdas/lib): GetItem and Query to read, PutItem and UpdateItem to write, and
        // a table's extras (TABLE_WRITE_EXTRAS). CDK's grantReadData/grantReadWriteData would add Scan, Batch* and
        // DeleteItem everywhere.
        const actions: string[] = [...TABLE_ACTIONS.read];
        if (verb === 'write') actions.push(...TABLE_ACTIONS.write, ...(TABLE_WRITE_EXTRAS[name] ?? []));
        // The table and its named index (Query), not CDK's `<table>/index/*`.
        const index = TABLE_INDEXES[name];
        iam.Grant.addToPrincipal({
          grantee: fn,
          actions,
          resourceArns: [tables[name].tableArn, ...(index ? [`${tables[name].tableArn}/index/${index.name}`] : [])],
        });
      } else if (resource === 'idempotency') {
        iam.Grant.addToPrincipal({
          grantee: fn,
          actions: [...IDEMPOTENCY_ACTIONS],
          resourceArns: [tables.events.tableArn],
        });
      } else if (resource === 'media') {
        // `media:<prefix>:<action>`: objects under one prefix, one kind of action; never the whole bucket.
        const [, prefix, action] = a.split(':') as [string, keyof typeof MEDIA_PREFIX, 'read' | 'write' | 'delete'];
        grantMedia(media, fn, MEDIA_PREFIX[prefix], action);
      } else if (resource === 'jobs-machine') {
        const machine = this.pipelines.jobsMachine;
        if (verb === 'start') machine.grantStartExecution(fn);
        // Looking at an execution (GET /api/jobs/{id} checks a stalled job) must not be able to start one.
        else
          fn.addToRolePolicy(
            new iam.PolicyStatement({
              actions: ['states:DescribeExecution'],
              resources: [executionArns(this, machine)],
            }),
          );
      } else if (resource === 'pipeline') {
        this.orderPipeline.machine.grantStartExecution(fn);
        if (verb === 'manage') {
          // The reconciler: looks at an order's execution, and stops one stuck past its deadline.
          fn.addToRolePolicy(
            new iam.PolicyStatement({
              actions: ['states:DescribeExecution', 'states:StopExecution'],
              resources: [executionArns(this, this.orderPipeline.machine)],
            }),
          );
        }
      } else if (resource === 'payments') {
        // Only real Stripe keys live in Secrets Manager; other modes have no secret to read.
        if (this.config.paymentMode === 'stripe') {
          this.stripeSecret ??= secretsmanager.Secret.fromSecretNameV2(
            this,
            'StripeSecret',
            this.config.stripeSecretName,
          );
          this.stripeSecret.grantRead(fn);
        }
      } else if (resource === 'mail') {
        // Only the configured sender identity (the address and its domain, whichever of the two is verified in SES).
        fn.addToRolePolicy(
          new iam.PolicyStatement({
            actions: ['ses:SendEmail'],
            resources: sesIdentityArns(this, this.config.mailFrom),
          }),
        );
      } else if (resource === 'rekognition') {
        fn.addToRolePolicy(
          new iam.PolicyStatement({ actions: ['rekognition:DetectModerationLabels'], resources: ['*'] }),
        );
        Validations.of(fn.role!).acknowledge({
          id: 'AwsSolutions-IAM5[Resource::*]',
          reason:
            'rekognition:DetectModerationLabels has no resource type in IAM; the photo it reads is limited by the uploads/ read grant.',
        });
      } else if (resource === 'bedrock') {
        // Exactly the configured models; with no generative style there is nothing to grant.
        const arns = bedrockModelArns(this.config, this.account, this.partition);
        if (arns.length) {
          // No Marketplace actions: the operator subscribes the account once (lib/bedrock-access.ts, preflight).
          fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['bedrock:InvokeModel'], resources: arns }));
        }
      } else if (resource === 'engine') {
        fn.addToRolePolicy(
          new iam.PolicyStatement({ actions: ['sagemaker:InvokeEndpoint'], resources: [this.engine.endpointArn] }),
        );
      } else {
        throw new Error(`No grant for access "${a}"`);
      }
    }
  }
}
