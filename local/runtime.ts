import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { configValueFromText } from '../domain/config';
import type { PaymentMode } from '../domain/contract-shapes';
import type { GenerativeStyles } from '../domain/generative';
import { FRONTEND_DIST, REPO_ROOT } from '../domain/repo-paths';
import { ORIGIN_VERIFY_HEADER, siteSecurityHeaders } from '../domain/security-headers';
import { type CapSetting, ENV } from '../domain/wiring';
import { startBedrockRelay } from './bedrock/relay';
import { type LocalBedrock, startLocalBedrock } from './bedrock/server';
import { LOCAL_HOST, type Running, S3RVER_CREDENTIALS, startDynamo, startS3, startSes } from './emulators';
import { type EngineContainer, startEngineContainer } from './engine-container';
import { startEngineEndpoint } from './engine-endpoint';
import { createGateway } from './gateway';
import { LambdaHost } from './lambda-host';
import { loadNsfwModel } from './rekognition/nsfw-model';
import { startLocalRekognition } from './rekognition/server';
import { startSchedules } from './scheduler';
import { startStepFunctions } from './step-functions';
import { startLocalStripe } from './stripe/server';
import {
  type GenerativeSettingsOverrides,
  LOCAL_REGION,
  type LocalModel,
  readModel,
  synthesizeLocal,
} from './template';

/** Bedrock endpoints this process started (a second runtime in one process must not take them for a user's). */
const ownBedrockUrls = new Set<string>();

/** The mail viewer's port for `npm start` / `npm run dev`: TOONZAP_MAIL_PORT, else 3005 (tests pass 0). */
export function mailPortFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const port = Number(env.TOONZAP_MAIL_PORT ?? 3005);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`TOONZAP_MAIL_PORT must be a port number, not "${env.TOONZAP_MAIL_PORT}"`);
  return port;
}

/** The local Bedrock's requests-per-minute quota per model for `npm start`: TOONZAP_BEDROCK_RPM, else none. */
export function bedrockRpmFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env.TOONZAP_BEDROCK_RPM;
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`TOONZAP_BEDROCK_RPM must be a whole number of requests per minute >= 1, not "${raw}"`);
  return n;
}

/** The runtime's options that `npm start` and `npm run dev` both take from the environment. */
export function runtimeOptionsFromEnv(env: NodeJS.ProcessEnv = process.env) {
  return {
    dataDir: env.TOONZAP_DATA_DIR,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET,
    mailPort: mailPortFromEnv(env),
    host: env.HOST || undefined,
    bedrockRequestsPerMinute: bedrockRpmFromEnv(env),
    warm: true,
    log: (msg: string) => console.log(msg),
  } satisfies Partial<LocalRuntimeOptions>;
}

/** The engine endpoint's MaxConcurrency as the template configures it (lib/engine-endpoint.ts ServerlessConfig). */
function templateMaxConcurrency(model: LocalModel): number {
  for (const r of Object.values(model.template.Resources)) {
    if (r.Type !== 'AWS::SageMaker::EndpointConfig') continue;
    const n = r.Properties?.ProductionVariants?.[0]?.ServerlessConfig?.MaxConcurrency;
    if (typeof n === 'number') return n;
  }
  throw new Error('The template has no serverless engine endpoint configuration (MaxConcurrency)');
}

export interface LocalRuntimeOptions {
  /** App port; 0 picks a free one (tests). */
  port?: number;
  /**
   * Interface the app listens on: 127.0.0.1 by default, so only this machine reaches it (the gateway adds the origin
   * secret CloudFront would, so whoever reaches it has the API). `HOST=0.0.0.0 npm start` to open it to the network.
   */
  host?: string;
  /** Where emulator data lives; kept across restarts. */
  dataDir?: string;
  /** Port of the mail viewer (local SES); 0 (default) picks a free one. `npm start` uses TOONZAP_MAIL_PORT or 3005. */
  mailPort?: number;
  paymentMode?: PaymentMode;
  /** Signing secret of the local Stripe's webhooks (simulated mode); default a fresh random one per start. */
  webhookSecret?: string;
  log?: (msg: string) => void;
  /** Handlers' log level (Powertools): WARN unless asked (`POWERTOOLS_LOG_LEVEL=INFO npm start`). */
  logLevel?: string;
  /** The local Bedrock's quota: requests per minute per model (ThrottlingException beyond it); default none. */
  bedrockRequestsPerMinute?: number;
  /** Models the local Bedrock's account is not subscribed to (AccessDeniedException); default none. */
  bedrockUnsubscribedModels?: string[];
  /** The app's Bedrock upscale service (domain/config.ts bedrockUpscaleModelId); default the template's (none). */
  bedrockUpscaleModelId?: string;
  /** Concurrent invocations the local engine endpoint serves (ThrottlingException beyond); default the template's. */
  engineMaxConcurrency?: number;
  /** Limits of the global caps (domain/wiring.ts CAPS), e.g. `{ uploadsPerHour: 2 }`; default the template's. */
  caps?: Partial<Record<CapSetting, number>>;
  /**
   * Fields of generative styles' settings, synthesized into the stack as `-c generativeSettings` would be on a deploy
   * (e.g. `{ '3d': { modelId: CONTROL_STRUCTURE_MODEL_ID } }`: the plain id of a profile-only model, as an operator
   * might set it); default the presets.
   */
  generativeSettings?: GenerativeSettingsOverrides;
  /**
   * After start, in the background: load every function's code, the moderation model, and the engine's style
   * workers and analysis threads with their models (what engine/server.ts does before a container answers /ping),
   * so the first visitor does not wait for them. `npm start` and `npm run dev` warm; tests do not (default false).
   */
  warm?: boolean;
}

type BedrockControls = Pick<
  LocalBedrock,
  | 'setRequestsPerMinute'
  | 'setUnsubscribed'
  | 'setBlankOutputs'
  | 'setFacelessOutputs'
  | 'setAccessDenied'
  | 'upscaleCalls'
>;

/** What a test (or an operator trying things) can change in the local stand-ins while the runtime runs. */
export interface LocalControls {
  /** The Bedrock stand-in's account and fault knobs (local/bedrock/server.ts LocalBedrock). */
  bedrock: BedrockControls;
  engine: {
    setMaxConcurrency(n: number): void;
    /** Invocations the endpoint refused for concurrency so far. */
    throttled(): number;
  };
}

export interface LocalRuntime extends LocalControls {
  url: string;
  mailUrl: string;
  /** The local Stripe stand-in (payment mode 'simulated'), else null. */
  stripeUrl: string | null;
  s3Url: string;
  dynamoUrl: string;
  model: LocalModel;
  /** Environment the handlers run with (resolved from the template plus local endpoints). */
  env: Record<string, string>;
  /** Executions found unfinished from an earlier run and started again. */
  resumedExecutions: string[];
  /** The Bedrock runtime endpoint the handlers use: the local stand-in, or a relay to the endpoint given at start. */
  bedrockUrl: string;
  /** Model calls the local Rekognition stand-in has answered (tests check verdicts are reused). */
  rekognitionCalls(): number;
  /** Runs every scheduled function of the template now, as its schedule would (tests). */
  runSchedules(): Promise<unknown[]>;
  /** Resolves when no state machine execution is running (tests). */
  idle(): Promise<void>;
  /** Resolves when the background warm-up (`warm`) has finished; at once without it. */
  warmed(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Runs the synthesized stack on this machine: emulators for the AWS services, the template's tables and buckets,
 * and every route's handler behind a local API Gateway + CloudFront stand-in.
 */
export async function startLocalRuntime(opts: LocalRuntimeOptions = {}): Promise<LocalRuntime> {
  const log = opts.log ?? (() => {});
  const dataDir = path.resolve(opts.dataDir || path.join(REPO_ROOT, '.data'));
  const paymentMode = opts.paymentMode ?? 'simulated';
  const started: Running[] = [];

  // The app server listens first: its origin is part of the storage CORS rules.
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 3000, opts.host ?? LOCAL_HOST, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://localhost:${port}`;
  // Requests that arrive while the runtime is still starting (a webhook the local Stripe resumes) wait for the gateway.
  let openGateway!: (listener: http.RequestListener) => void;
  const gateway = new Promise<http.RequestListener>((resolve) => (openGateway = resolve));
  server.on(
    'request',
    (req, res) =>
      void gateway
        .then((listener) => listener(req, res))
        .catch((err) => {
          console.error('[gateway]', err);
          res.destroy();
        }),
  );

  try {
    const model = readModel(synthesizeLocal(paymentMode, opts.generativeSettings), (_id, attr) =>
      attr === 'DomainName' ? `localhost:${port}` : undefined,
    );
    const [dynamo, s3, ses] = await Promise.all([
      startDynamo(dataDir, model.tables),
      startS3(dataDir, model.buckets, [url, `http://${LOCAL_HOST}:${port}`]),
      startSes(dataDir, opts.mailPort ?? 0),
    ]);
    started.push(dynamo, s3, ses);
    // The engine's model server plays the SageMaker endpoint; the nsfwjs model plays Rekognition.
    const [engine, moderation] = await Promise.all([
      // Given the local S3 rather than process.env's endpoints, which still hold the previous run's when a runtime
      // is restarted in the same process (tests).
      startEngineContainer({
        host: LOCAL_HOST,
        s3: { endpoint: s3.url, region: LOCAL_REGION, credentials: S3RVER_CREDENTIALS },
        log,
      }),
      startLocalRekognition({
        port: 0,
        host: LOCAL_HOST,
        s3: new S3Client({
          endpoint: s3.url,
          forcePathStyle: true,
          region: LOCAL_REGION,
          credentials: S3RVER_CREDENTIALS,
        }),
      }),
    ]);
    started.push(engine, moderation);
    const endpoint = await startEngineEndpoint({
      container: engine.url,
      maxConcurrency: opts.engineMaxConcurrency ?? templateMaxConcurrency(model),
      host: LOCAL_HOST,
    });
    started.push(endpoint);

    // Generative styles: the stand-in draws them with the engine, unless an endpoint was given before start.
    const fnEnv = [...model.functions.values()][0]?.environment ?? {};
    const generative = JSON.parse(fnEnv[ENV.generativeStyles] ?? '{}') as GenerativeStyles;
    const given = process.env.AWS_ENDPOINT_URL_BEDROCK_RUNTIME;
    const bedrock =
      given && !ownBedrockUrls.has(given)
        ? await startBedrockRelay({ endpoint: given, region: fnEnv[ENV.bedrockRegion] ?? LOCAL_REGION, log })
        : await startLocalBedrock({
            host: LOCAL_HOST,
            styles: generative,
            log,
            requestsPerMinute: opts.bedrockRequestsPerMinute,
            unsubscribedModels: opts.bedrockUnsubscribedModels,
          });
    const standIn = !(given && !ownBedrockUrls.has(given));
    if (!standIn) log(`Generative styles use ${given} (credentials from the default chain)`);
    started.push(bedrock);
    ownBedrockUrls.add(bedrock.url);

    const env: Record<string, string> = {
      AWS_REGION: LOCAL_REGION,
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.url,
      AWS_ENDPOINT_URL_S3: s3.url,
      AWS_ENDPOINT_URL_SESV2: ses.url,
      AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME: endpoint.url,
      AWS_ENDPOINT_URL_REKOGNITION: moderation.url,
      AWS_ENDPOINT_URL_BEDROCK_RUNTIME: bedrock.url,
      S3_FORCE_PATH_STYLE: 'true',
    };
    for (const fn of model.functions.values()) {
      for (const [k, v] of Object.entries(fn.environment)) {
        if (k === 'NODE_OPTIONS') continue;
        if (env[k] !== undefined && env[k] !== v)
          throw new Error(`Functions disagree on ${k}: the local runtime shares one environment`);
        env[k] = v;
      }
    }
    // The app's admission control (lambdas/lib/capacity.ts) is sized to the stand-ins' account, as an operator sets
    // lib/config.ts from the account's quotas.
    if (opts.bedrockRequestsPerMinute !== undefined)
      env[ENV.bedrockRequestsPerMinute] = String(opts.bedrockRequestsPerMinute);
    if (opts.engineMaxConcurrency !== undefined) env[ENV.engineMaxConcurrency] = String(opts.engineMaxConcurrency);
    for (const [key, limit] of Object.entries(opts.caps ?? {}) as [CapSetting, number][])
      env[ENV[key]] = String(configValueFromText(key, String(limit)));
    if (opts.bedrockUpscaleModelId !== undefined)
      env[ENV.bedrockUpscaleModelId] = configValueFromText('bedrockUpscaleModelId', opts.bedrockUpscaleModelId) ?? '';
    // Links in e-mails and Checkout redirects lead back to this app, not to the template's CloudFront domain.
    env.SITE_URL = url;
    // The engine draws the generative styles here: the browser says so on their tiles and image pages.
    if (standIn) env[ENV.generativeStandIn] = 'true';
    // Powertools: metrics (EMF on stdout) and X-Ray are AWS's; logs show warnings and errors unless the shell asks
    // for more (opts.logLevel; npm start passes POWERTOOLS_LOG_LEVEL). Many invocations share this process, so each runs in its own
    // invocation store, as on Lambda's multi-concurrency runtime (local/invoke-store.ts).
    Object.assign(env, {
      POWERTOOLS_METRICS_DISABLED: 'true',
      POWERTOOLS_TRACE_ENABLED: 'false',
      POWERTOOLS_LOG_LEVEL: opts.logLevel ?? 'WARN',
      AWS_LAMBDA_MAX_CONCURRENCY: '64',
    });
    // The origin secret CloudFront would send. Deployed, the functions read it from Secrets Manager
    // (ORIGIN_SECRET_ARN); there is no Secrets Manager here, so they get the value itself, which wins
    // (lambdas/lib/http.ts), as the Stripe keys do below.
    const originSecret = randomBytes(24).toString('base64url');
    env[ENV.originVerifySecret] = originSecret;
    env.SITE_ORIGINS = [url, `http://${LOCAL_HOST}:${port}`].join(',');

    // Payment mode 'simulated': a local Stripe stand-in, with the real SDK pointed at it. It starts before Step
    // Functions, so executions resumed below (refunds) already reach it; its webhooks wait for the gateway.
    let stripeUrl: string | null = null;
    if (paymentMode === 'simulated') {
      // Given: an outside harness signs events with it too. Else a fresh one: nothing outside needs to know it.
      const webhookSecret = opts.webhookSecret || `whsec_${randomBytes(24).toString('base64url')}`;
      const stripe = await startLocalStripe({
        port: 0,
        host: LOCAL_HOST,
        webhookUrl: `${url}/api/stripe-webhook`,
        webhookSecret,
        dataFile: path.join(dataDir, 'stripe', 'stripe.json'),
        log,
      });
      started.push(stripe);
      stripeUrl = stripe.url;
      Object.assign(env, {
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_WEBHOOK_SECRET: webhookSecret,
        STRIPE_API_BASE: stripe.url,
      });
    }

    delete process.env.AWS_PROFILE;
    Object.assign(process.env, env);

    const lambdas = new LambdaHost(model.functions);
    const stepFunctions = await startStepFunctions({ dataDir, machines: model.stateMachines, lambdas });
    started.push(stepFunctions);
    process.env.AWS_ENDPOINT_URL_SFN = env.AWS_ENDPOINT_URL_SFN = stepFunctions.url;
    if (stepFunctions.resumed.length)
      log(`Resumed ${stepFunctions.resumed.length} unfinished execution(s): ${stepFunctions.resumed.join(', ')}`);
    openGateway(
      createGateway({
        routes: model.routes,
        lambdas,
        staticDir: FRONTEND_DIST,
        siteFunctionCode: model.siteFunctionCode,
        siteHeaders: siteSecurityHeaders({ mediaOrigin: new URL(s3.url).origin, https: false }),
        apiOriginHeaders: { [ORIGIN_VERIFY_HEADER]: originSecret },
      }),
    );
    // The template's schedules (the reconciler): once now, to repair what a crash left, then at their rate.
    const schedules = startSchedules({ schedules: model.schedules, lambdas, log });
    const warming = opts.warm ? warmUp(lambdas, engine, log) : Promise.resolve();
    log(`ToonZap is running on ${url}`);
    log(`Mail viewer (e-mails the app sends): ${ses.url}`);

    return {
      url,
      mailUrl: ses.url,
      stripeUrl,
      s3Url: s3.url,
      dynamoUrl: dynamo.url,
      bedrockUrl: bedrock.url,
      bedrock: {
        setRequestsPerMinute: bedrock.setRequestsPerMinute,
        setUnsubscribed: bedrock.setUnsubscribed,
        setBlankOutputs: bedrock.setBlankOutputs,
        setFacelessOutputs: bedrock.setFacelessOutputs,
        setAccessDenied: bedrock.setAccessDenied,
        upscaleCalls: bedrock.upscaleCalls,
      },
      engine: { setMaxConcurrency: endpoint.setMaxConcurrency, throttled: endpoint.throttled },
      model,
      env,
      resumedExecutions: stepFunctions.resumed,
      rekognitionCalls: () => moderation.calls(),
      runSchedules: () => schedules.runAll(),
      idle: () => stepFunctions.idle(),
      warmed: () => warming,
      async close() {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await schedules.close();
        // Step Functions first: unfinished executions are saved as running before the services they use go away.
        await stepFunctions.close();
        await Promise.all(started.filter((s) => s !== stepFunctions).map((s) => s.close()));
      },
    };
  } catch (err) {
    server.close();
    await Promise.all(started.map((s) => s.close().catch(() => {})));
    throw err;
  }
}

/**
 * What the first request would otherwise load lazily (measured by `npm run bench jobs`): the functions' code, the
 * Rekognition stand-in's model, the engine's threads and models. In the background after start; never fails the
 * runtime (a part that cannot warm loads on first use, as before).
 */
async function warmUp(lambdas: LambdaHost, engine: EngineContainer, log: (msg: string) => void): Promise<void> {
  // After "running" is printed.
  await new Promise<void>((resolve) => setImmediate(resolve));
  const t0 = performance.now();
  const parts = await Promise.allSettled([engine.warm(), loadNsfwModel(), lambdas.preload()]);
  const failed = parts.filter((p) => p.status === 'rejected') as PromiseRejectedResult[];
  for (const f of failed) log(`Warm-up: ${(f.reason as Error).message ?? f.reason} (loads on first use instead)`);
  log(`Warm: engine, moderation model and functions loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
