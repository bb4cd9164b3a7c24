import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EnvConfig } from '../domain/config';
import type { PaymentMode } from '../domain/contract-shapes';
import type { GenerativeStyleSettings } from '../domain/generative';
import { REPO_ROOT } from '../domain/repo-paths';
import { ENTRY_METADATA_KEY } from '../domain/wiring';
import { writeFileDurably } from './durable-file';

/**
 * Synthesizes the real stack (without bundling) and reads back what the local runtime needs: tables, buckets,
 * functions with their source modules and environment, HTTP routes, state machines and schedules. CloudFormation
 * intrinsics are resolved to local names, so everything the stack defines is run here exactly once defined.
 */
export const LOCAL_REGION = 'us-east-1';
export const LOCAL_ACCOUNT = '000000000000';

type Json = any;
interface Resource {
  Type: string;
  Properties?: Json;
  Metadata?: Record<string, unknown>;
}
export interface CfnTemplate {
  Resources: Record<string, Resource>;
}

/** Per style, fields of its generative settings to change (as `-c generativeSettings` on a deploy). */
export type GenerativeSettingsOverrides = Record<string, Partial<GenerativeStyleSettings>>;

export interface LocalTable {
  name: string;
  keySchema: Json[];
  attributeDefinitions: Json[];
  globalSecondaryIndexes?: Json[];
}
export interface LocalBucket {
  name: string;
  cors: Json[] | undefined;
}
export interface LocalFunction {
  logicalId: string;
  arn: string;
  entry: string;
  environment: Record<string, string>;
  timeoutSeconds: number;
}
export interface LocalRoute {
  method: string;
  path: string;
  functionId: string;
}
export interface LocalStateMachine {
  logicalId: string;
  arn: string;
  name: string;
  definition: Json;
}
/** An EventBridge Scheduler schedule that invokes one of the template's functions at a fixed rate. */
export interface LocalSchedule {
  logicalId: string;
  expression: string;
  periodMs: number;
  functionId: string;
  input: Json;
}

export interface LocalModel {
  tables: LocalTable[];
  buckets: LocalBucket[];
  functions: Map<string, LocalFunction>;
  routes: LocalRoute[];
  stateMachines: LocalStateMachine[];
  /** The site's CloudFront Function (viewer request), run by the local gateway for every non-API path. */
  siteFunctionCode: string;
  schedules: LocalSchedule[];
  /** The engine endpoint's MaxConcurrency (lib/engine-endpoint.ts ServerlessConfig). */
  engineMaxConcurrency: number;
}

/**
 * The synthesized template, from a cache when nothing it was made from changed. Synthesis takes seconds (much longer
 * on a busy machine) and every start of the runtime needs it. The key hashes the repository's source files that were
 * loaded when the cached template was made (a superset of what the stack imports), the lock file and the built site's
 * pages (the CloudFront Function embeds the not-found page and checks the prerendered ones): any edit to the stack,
 * to anything it imports, or a new build of the site misses the cache. A process that cannot list its modules (jest)
 * only reads it.
 */
export function synthesizeLocal(
  paymentMode: PaymentMode,
  generativeSettings?: GenerativeSettingsOverrides,
): CfnTemplate {
  const dir = path.join(os.tmpdir(), 'toonzap-template-cache');
  const index = path.join(dir, 'sources.json');
  // Each variant of the stack is cached under its own key.
  const variant = generativeSettings ? `${paymentMode}\0${JSON.stringify(generativeSettings)}` : paymentMode;
  try {
    const key = sourcesKey(JSON.parse(fs.readFileSync(index, 'utf8')) as string[], variant);
    if (key) return JSON.parse(fs.readFileSync(path.join(dir, `${key}.json`), 'utf8')) as CfnTemplate;
  } catch {
    // no usable cache: synthesize
  }
  const template = synthesize(paymentMode, generativeSettings);
  const sources = Object.keys(require.cache)
    .filter((f) => f.startsWith(REPO_ROOT + path.sep) && !f.includes(`${path.sep}node_modules${path.sep}`))
    .map((f) => path.relative(REPO_ROOT, f));
  const key = sources.includes(path.join('lib', 'toonzap-stack.ts')) ? sourcesKey(sources, variant) : null;
  if (key) {
    writeFileDurably(path.join(dir, `${key}.json`), JSON.stringify(template));
    writeFileDurably(index, JSON.stringify(sources));
  }
  return template;
}

/** The cache key of a template made from these sources (null when one is gone); exported for its test. */
export function sourcesKey(
  sources: string[],
  variant: string,
  dist = path.join(REPO_ROOT, 'frontend', 'dist'),
): string | null {
  const hash = createHash('sha256').update(`${variant}\0${process.version}\0`);
  for (const file of [...new Set([...sources, 'package-lock.json'])].sort()) {
    const abs = path.join(REPO_ROOT, file);
    if (!fs.existsSync(abs)) return null;
    hash.update(`${file}\0`).update(fs.readFileSync(abs)).update('\0');
  }
  const pages = fs.existsSync(dist)
    ? (fs.readdirSync(dist, { recursive: true }) as string[]).filter((f) => f.endsWith('.html')).sort()
    : [];
  for (const page of pages)
    hash
      .update(`dist/${page}\0`)
      .update(fs.readFileSync(path.join(dist, page)))
      .update('\0');
  return hash.digest('hex');
}

function synthesize(paymentMode: PaymentMode, generativeSettings?: GenerativeSettingsOverrides): CfnTemplate {
  // Loaded only when needed: the CDK and the stack's modules take a while to load.
  const { App } = require('aws-cdk-lib') as typeof import('aws-cdk-lib');
  const { ENVIRONMENTS, generativeOverrides } = require('../lib/config') as typeof import('../lib/config');
  const { ToonZapStack } = require('../lib/toonzap-stack') as typeof import('../lib/toonzap-stack');
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] }, outdir: undefined });
  // The engine runs in process here, so no container image needs staging.
  const config: EnvConfig = {
    ...ENVIRONMENTS.dev,
    paymentMode,
    engineImageUri: `${LOCAL_ACCOUNT}.dkr.ecr.${LOCAL_REGION}.amazonaws.com/toonzap-engine:local`,
    // As `-c generativeSettings=...` on a deploy, through the same merge and checks.
    ...(generativeSettings
      ? generativeOverrides(ENVIRONMENTS.dev, (key) => (key === 'generativeSettings' ? generativeSettings : undefined))
      : {}),
  };
  const stack = new ToonZapStack(app, 'ToonZap-local', {
    config,
    env: { account: LOCAL_ACCOUNT, region: LOCAL_REGION },
  });
  return app.synth().getStackByName(stack.stackName).template as CfnTemplate;
}

/** The code of the template's one viewer-request CloudFront Function. */
export function viewerRequestCode(template: CfnTemplate): string {
  const fns = Object.values(template.Resources).filter((r) => r.Type === 'AWS::CloudFront::Function');
  if (fns.length !== 1) throw new Error(`Expected one CloudFront Function in the template, found ${fns.length}`);
  const code = fns[0].Properties?.FunctionCode;
  if (typeof code !== 'string') throw new Error('The CloudFront Function code is not inline text');
  return code;
}

/** Local physical names, derived from logical ids so they stay stable across restarts (data is kept). */
export function physicalName(logicalId: string, type: string): string {
  switch (type) {
    case 'AWS::S3::Bucket':
      return `local-${logicalId.toLowerCase()}`.slice(0, 63);
    case 'AWS::Lambda::Function':
      return `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:${logicalId}`;
    case 'AWS::StepFunctions::StateMachine':
      return `arn:aws:states:${LOCAL_REGION}:${LOCAL_ACCOUNT}:stateMachine:${logicalId}`;
    default:
      return logicalId;
  }
}

export function resolve(
  template: CfnTemplate,
  value: Json,
  attrs: (logicalId: string, attr: string) => string | undefined = () => undefined,
): Json {
  const r = (v: Json): Json => resolve(template, v, attrs);
  if (Array.isArray(value)) return value.map(r);
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value);
  if (keys.length === 1) {
    const [k] = keys;
    const arg = value[k];
    if (k === 'Ref') {
      const res = template.Resources[arg];
      if (!res) throw new Error(`Unresolvable Ref ${arg}`);
      return physicalName(arg, res.Type);
    }
    if (k === 'Fn::GetAtt') {
      const [id, attr] = arg as [string, string];
      const custom = attrs(id, attr);
      if (custom !== undefined) return custom;
      const res = template.Resources[id];
      if (!res) throw new Error(`Unresolvable GetAtt ${id}.${attr}`);
      if (attr === 'Arn') {
        if (res.Type === 'AWS::DynamoDB::Table') return `arn:aws:dynamodb:${LOCAL_REGION}:${LOCAL_ACCOUNT}:table/${id}`;
        if (res.Type === 'AWS::S3::Bucket') return `arn:aws:s3:::${physicalName(id, res.Type)}`;
        return physicalName(id, res.Type);
      }
      return `${id}.${attr}`;
    }
    if (k === 'Fn::Join') return (r(arg[1]) as Json[]).map(String).join(arg[0]);
    // The stack names its resources by Ref, GetAtt and Join alone: another intrinsic must not pass unresolved.
    if (k.startsWith('Fn::')) throw new Error(`The local runtime does not resolve ${k}`);
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, r(v)]));
}

export function readModel(
  template: CfnTemplate,
  attrs?: (logicalId: string, attr: string) => string | undefined,
): LocalModel {
  const res = Object.entries(template.Resources);
  const tables: LocalTable[] = res
    .filter(([, r]) => r.Type === 'AWS::DynamoDB::Table')
    .map(([id, r]) => ({
      name: physicalName(id, r.Type),
      keySchema: r.Properties.KeySchema,
      attributeDefinitions: r.Properties.AttributeDefinitions,
      globalSecondaryIndexes: r.Properties.GlobalSecondaryIndexes,
    }));
  const buckets: LocalBucket[] = res
    .filter(([, r]) => r.Type === 'AWS::S3::Bucket')
    .map(([id, r]) => ({
      name: physicalName(id, r.Type),
      cors: r.Properties?.CorsConfiguration?.CorsRules,
    }));
  const functions = new Map<string, LocalFunction>();
  for (const [id, r] of res) {
    const entry = r.Metadata?.[ENTRY_METADATA_KEY];
    if (r.Type !== 'AWS::Lambda::Function' || typeof entry !== 'string') continue;
    const environment = resolve(template, r.Properties.Environment?.Variables ?? {}, attrs) as Record<string, string>;
    functions.set(id, {
      logicalId: id,
      arn: physicalName(id, r.Type),
      entry,
      environment,
      timeoutSeconds: r.Properties.Timeout ?? 3,
    });
  }
  const routes: LocalRoute[] = [];
  for (const [, r] of res) {
    if (r.Type !== 'AWS::ApiGatewayV2::Route') continue;
    const [method, path] = String(r.Properties.RouteKey).split(' ');
    const integrationId = r.Properties.Target['Fn::Join'][1][1].Ref as string;
    const uri = template.Resources[integrationId].Properties.IntegrationUri;
    routes.push({ method, path, functionId: uri['Fn::GetAtt'][0] });
  }
  const stateMachines: LocalStateMachine[] = res
    .filter(([, r]) => r.Type === 'AWS::StepFunctions::StateMachine')
    .map(([id, r]) => {
      const raw = resolve(template, r.Properties.DefinitionString, attrs);
      return { logicalId: id, arn: physicalName(id, r.Type), name: id, definition: JSON.parse(raw) };
    });
  const schedules: LocalSchedule[] = [];
  for (const [id, r] of res) {
    if (r.Type !== 'AWS::Scheduler::Schedule' || r.Properties.State === 'DISABLED') continue;
    const expression = String(r.Properties.ScheduleExpression);
    const target = resolve(template, r.Properties.Target.Arn, attrs) as string;
    const fn = [...functions.values()].find((f) => f.arn === target);
    if (!fn)
      throw new Error(
        `Schedule ${id} targets ${target}, which the local runtime cannot run (only the template's functions)`,
      );
    const input =
      r.Properties.Target.Input === undefined ? {} : JSON.parse(resolve(template, r.Properties.Target.Input, attrs));
    schedules.push({ logicalId: id, expression, periodMs: rateMs(expression, id), functionId: fn.logicalId, input });
  }
  const endpointConfig = res.find(([, r]) => r.Type === 'AWS::SageMaker::EndpointConfig')?.[1];
  const engineMaxConcurrency = endpointConfig?.Properties.ProductionVariants[0].ServerlessConfig?.MaxConcurrency;
  if (typeof engineMaxConcurrency !== 'number')
    throw new Error('The template has no serverless engine endpoint configuration (MaxConcurrency)');
  const siteFunctionCode = viewerRequestCode(template);
  return { tables, buckets, functions, routes, stateMachines, siteFunctionCode, schedules, engineMaxConcurrency };
}

/** Milliseconds between runs of an EventBridge Scheduler `rate(value unit)` expression (the only kind the stack uses). */
export function rateMs(expression: string, id = 'schedule'): number {
  const m = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/.exec(expression);
  if (!m) throw new Error(`${id}: only rate(...) schedules run locally, not ${expression}`);
  const unit = m[2].startsWith('minute') ? 60_000 : m[2].startsWith('hour') ? 3_600_000 : 86_400_000;
  return Number(m[1]) * unit;
}
