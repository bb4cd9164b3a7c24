import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
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
import { S3RVER_CREDENTIALS, startDynamo, startS3, startSes } from './emulators';
import { type EngineContainer, startEngineContainer } from './engine-container';
import { type LocalEngineEndpoint, startEngineEndpoint } from './engine-endpoint';
import { createGateway } from './gateway';
import { LambdaHost } from './lambda-host';
import { loadNsfwModel } from './rekognition/nsfw-model';
import { startLocalRekognition } from './rekognition/server';
import { startSchedules } from './scheduler';
import { LOCAL_HOST, type Running, serve } from './serve';
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
/** How long close waits for running handlers: past it, one that hangs is left to fail on the closed services. */
const HANDLER_DRAIN_MS = 30_000;

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
  /** The app's Bedrock upscale service (domain/config.ts bedrockUpscaleModelId); default the template's (none). */
  bedrockUpscaleModelId?: string;
  /** Concurrent invocations the local engine endpoint serves (ThrottlingException beyond); default the template's. */
  engineMaxConcurrency?: number;
  /** Limits of the global caps (domain/wiring.ts CAPS), e.g. `{ uploadsPerHour: 2 }`; default the template's. */
  caps?: Partial<Record<CapSetting, number>>;
  /** Fields of generative styles' settings, synthesized into the stack as `-c generativeSettings` would be on a deploy. */
  generativeSettings?: GenerativeSettingsOverrides;
  /**
   * After start, in the background: load every function's code, the moderation model, and the engine's style
   * workers and analysis threads with their models (what engine/server.ts does before a container answers /ping),
   * so the first visitor does not wait for them. `npm start` and `npm run dev` warm; tests do not (default false).
   */
  warm?: boolean;
}

export interface LocalRuntime {
  url: string;
  /**
   * The Bedrock runtime endpoint the handlers use: the local stand-in, with its account and fault knobs (what a test
   * or an operator trying things can change), or a relay to the endpoint given at start.
   */
  bedrock: LocalBedrock;
  /** The engine endpoint: its MaxConcurrency, and the invocations it refused for it so far. */
  engine: Pick<LocalEngineEndpoint, 'setMaxConcurrency' | 'throttled'>;
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
  const app = await serve(server, opts.host, opts.port ?? 3000);
  const url = `http://localhost:${app.port}`;
  const origins = [url, `http://${LOCAL_HOST}:${app.port}`];
  // Requests that arrive while the runtime is still starting (a webhook the local Stripe resumes) wait for the gateway.
  let openGateway!: (listener: http.RequestListener) => void;
  const gateway = new Promise<http.RequestListener>((resolve) => (openGateway = resolve));
  server.on('request', (req, res) => void gateway.then((listener) => listener(req, res)));

  try {
    const model = readModel(synthesizeLocal(paymentMode, opts.generativeSettings), (_id, attr) =>
      attr === 'DomainName' ? `localhost:${app.port}` : undefined,
    );
    const [dynamo, s3, ses] = await Promise.all([
      startDynamo(dataDir, model.tables),
      startS3(dataDir, model.buckets, origins),
      startSes(dataDir, opts.mailPort ?? 0),
    ]);
    started.push(dynamo, s3, ses);
    // The engine's model server plays the SageMaker endpoint, the nsfwjs model Rekognition: given the local S3, not
    // process.env's endpoints, which hold the previous run's when a runtime restarts in the same process (tests).
    const localS3 = { endpoint: s3.url, region: LOCAL_REGION, credentials: S3RVER_CREDENTIALS };
    const [engine, moderation] = await Promise.all([
      startEngineContainer({ s3: localS3, log }),
      startLocalRekognition(new S3Client({ ...localS3, forcePathStyle: true })),
    ]);
    started.push(engine, moderation);
    const endpoint = await startEngineEndpoint({
      container: engine.url,
      maxConcurrency: opts.engineMaxConcurrency ?? model.engineMaxConcurrency,
    });
    started.push(endpoint);

    // Generative styles: the stand-in draws them with the engine, unless an endpoint was given before start.
    const fnEnv = [...model.functions.values()][0]?.environment ?? {};
    const given = process.env.AWS_ENDPOINT_URL_BEDROCK_RUNTIME;
    const standIn = !given || ownBedrockUrls.has(given);
    const bedrock = standIn
      ? await startLocalBedrock({
          styles: JSON.parse(fnEnv[ENV.generativeStyles] ?? '{}') as GenerativeStyles,
          log,
          requestsPerMinute: opts.bedrockRequestsPerMinute,
        })
      : await startBedrockRelay({ endpoint: given, region: fnEnv[ENV.bedrockRegion] ?? LOCAL_REGION, log });
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
    // Powertools: metrics (EMF on stdout) and X-Ray are AWS's; logs show warnings and errors unless asked (logLevel).
    // Many invocations share this process, each in its own invocation store, as on Lambda's multi-concurrency runtime
    // (local/invoke-store.ts).
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
    env.SITE_ORIGINS = origins.join(',');

    // Payment mode 'simulated': a local Stripe stand-in, with the real SDK pointed at it. It starts before Step
    // Functions, so executions resumed below (refunds) already reach it; its webhooks wait for the gateway.
    let stripeUrl: string | null = null;
    if (paymentMode === 'simulated') {
      // Given: an outside harness signs events with it too. Else a fresh one: nothing outside needs to know it.
      const webhookSecret = opts.webhookSecret || `whsec_${randomBytes(24).toString('base64url')}`;
      const stripe = await startLocalStripe({
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
      bedrock,
      engine: endpoint,
      model,
      env,
      resumedExecutions: stepFunctions.resumed,
      rekognitionCalls: () => moderation.calls(),
      runSchedules: () => schedules.runAll(),
      idle: () => stepFunctions.idle(),
      warmed: () => warming,
      async close() {
        await app.close();
        await schedules.close();
        // Step Functions first: unfinished executions are saved as running before the services they use go away.
        await stepFunctions.close();
        // Then the handlers still running (an aborted task, a request whose client left) end before what they call.
        await lambdas.drain(HANDLER_DRAIN_MS);
        await Promise.all(started.filter((s) => s !== stepFunctions).map((s) => s.close()));
      },
    };
  } catch (err) {
    await app.close();
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
  await new Promise<void>((resolve) => setImmediate(resolve)); // after "running" is printed
  const t0 = performance.now();
  for (const part of await Promise.allSettled([engine.warm(), loadNsfwModel(), lambdas.preload()]))
    if (part.status === 'rejected') log(`Warm-up: ${(part.reason as Error).message} (loads on first use instead)`);
  log(`Warm: engine, moderation model and functions loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
