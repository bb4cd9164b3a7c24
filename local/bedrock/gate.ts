/**
 * What Bedrock checks of an InvokeModel call before the model runs, with AWS's own answers (what the handlers must
 * tell apart: lambdas/lib/bedrock.ts): the invocation type (a profile-only model called by its plain id), access to the
 * model, the Marketplace subscription of a third-party model, and the account's requests-per-minute quota per model
 * (a sliding 60 s window). The lists and the quota can be changed while running (tests fix the "account").
 */
import { foundationModelOf, PROFILE_ONLY_MODELS, parseModelId } from '../../domain/generative';
import { AwsError } from '../serve';

export const onDemandNotSupported = (modelId: string) =>
  new AwsError(
    'ValidationException',
    `Invocation of model ID ${modelId} with on-demand throughput isn't supported. Retry your request with the ID or ARN of an inference profile that contains this model.`,
  );

export const accessDenied = () =>
  new AwsError('AccessDeniedException', "You don't have access to the model with the specified model ID.", 403);

export const notSubscribed = () =>
  new AwsError(
    'AccessDeniedException',
    'Model access is denied due to IAM user or service role is not authorized to perform the required AWS Marketplace actions (aws-marketplace:ViewSubscriptions, aws-marketplace:Subscribe) to enable access to this model. Refer to the Amazon Bedrock documentation for further details. Your AWS Marketplace subscription for this model cannot be completed at this time. If you recently fixed this issue, try again after 2 minutes.',
    403,
  );

export const throttled = () =>
  new AwsError('ThrottlingException', 'Too many requests, please wait before trying again.', 429);

const WINDOW_MS = 60_000;

export interface GateOptions {
  /** Requests per minute per model id; undefined = no quota. */
  requestsPerMinute?: number;
  /** Model ids (as called, or the foundation model a profile contains) the account is not subscribed to. */
  unsubscribedModels?: readonly string[];
}

export function accountGate(opts: GateOptions = {}) {
  let rpm = opts.requestsPerMinute;
  let unsubscribed = new Set(opts.unsubscribedModels ?? []);
  let denied = new Set<string>();
  const recent = new Map<string, number[]>();
  const check = (v: number | undefined) => {
    if (v !== undefined && (!Number.isInteger(v) || v < 1))
      throw new Error(`requests per minute must be a whole number >= 1 (or undefined for none), not ${v}`);
    return v;
  };
  check(rpm);

  return {
    /** Throws AWS's answer when the call may not run; else counts it against the model's quota. */
    admit(modelId: string, now = Date.now()): void {
      const ref = parseModelId(modelId);
      if (ref?.kind === 'foundation-model' && PROFILE_ONLY_MODELS.includes(ref.modelId))
        throw onDemandNotSupported(modelId);
      const foundation = foundationModelOf(modelId);
      if (denied.has(modelId) || denied.has(foundation)) throw accessDenied();
      if (unsubscribed.has(modelId) || unsubscribed.has(foundation)) throw notSubscribed();
      if (rpm === undefined) return;
      const times = (recent.get(modelId) ?? []).filter((t) => now - t < WINDOW_MS);
      recent.set(modelId, times);
      if (times.length >= rpm) throw throttled();
      times.push(now);
    },
    setRequestsPerMinute(n: number | undefined): void {
      rpm = check(n);
    },
    setUnsubscribed(models: readonly string[]): void {
      unsubscribed = new Set(models);
    },
    setAccessDenied(models: readonly string[]): void {
      denied = new Set(models);
    },
  };
}
