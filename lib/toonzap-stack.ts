import { Lazy, Stack, type StackProps } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { type Access, ROUTES, routeId } from '../domain/api-routes';
import { ORIGIN_VERIFY_HEADER } from '../domain/security-headers';
import { CAP_SETTINGS, ENV, SERVICE_NAME, TABLES, type TableName, tableEnvVar } from '../domain/wiring';
import { Api } from './api';
import type { EnvConfig } from './config';
import { ENGINE_VARIANT, EngineEndpoint } from './engine-endpoint';
import { Grants } from './grants';
import { Monitoring } from './monitoring';
import { acknowledgeNagFindings } from './nag-acknowledgements';
import { OrderPipeline } from './order-pipeline';
import { rotateOriginSecret } from './origin-secret';
import { Pipelines } from './pipelines';
import { Schedules } from './schedules';
import { Site } from './site';
import { siteResponseHeadersPolicy } from './site-headers';
import { Storage } from './storage';

export interface ToonZapStackProps extends StackProps {
  readonly config: EnvConfig;
  /** The CloudFront web ACL (lib/edge.ts); without it the distribution has no WAF (the local runtime's synth). */
  readonly webAclArn?: string;
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
  /** Makes a new origin secret every ORIGIN_SECRET_ROTATION_DAYS (lib/origin-secret.ts) and sets it as CloudFront's header. */
  readonly originSecretRotation: lambda.Function;

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

    const grants = new Grants({
      stack: this,
      config,
      storage: this.storage,
      engine: this.engine,
      jobsMachine: () => this.pipelines.jobsMachine,
      orderMachine: () => this.orderPipeline.machine,
    });
    const grant = (fn: lambda.Function, access: readonly Access[]) => grants.grant(fn, access);
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
    this.originSecretRotation = rotateOriginSecret(this, originSecret, site, environment);

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
}
