import { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { Construct } from 'constructs';
import type { Access } from '../domain/api-routes';
import { CAPACITY_BUSY, ENGINE_ERRORS } from '../domain/wiring';
import { handlerFunction } from './functions';

export interface PipelinesProps {
  readonly environment: Record<string, string>;
  readonly grant: (fn: lambda.Function, access: readonly Access[]) => void;
}

export interface TaskDef {
  entry: string;
  access: readonly Access[];
  memoryMb: number;
  timeoutSeconds: number;
  sharp?: boolean;
}

/**
 * What every task that renders touches: the engine and Bedrock, the counters that ration them, and the uploaded
 * photo it reads (and deletes when its bytes are not the ones registered: lambdas/lib/media.ts).
 */
const RENDERS = [
  'engine',
  'bedrock',
  'counters:write',
  'media:uploads:read',
  'media:uploads:delete',
  // the share card of a delivered image (lambdas/lib/share-card.ts), drawn from its output
  'media:outputs:read',
  'media:shares:write',
] as const satisfies readonly Access[];

/** A task that renders: up to two minutes, sharp beside the bundle, RENDERS besides its own `access`. */
export function renderTask(entry: string, memoryMb: number, access: readonly Access[]): TaskDef {
  return { entry, access: [...access, ...RENDERS], memoryMb, timeoutSeconds: 120, sharp: true };
}

/** Task functions: lambdas/tasks/<name>.ts, each with what it may touch. */
const TASKS = {
  moderateImages: renderTask('moderate-images', 1024, [
    'images:read',
    'images:write',
    'jobs:write',
    'rekognition',
    'media:previews:write',
    // previews rendered during moderation, of a photo then refused
    'media:previews:delete',
  ]),
  makePreviews: renderTask('make-previews', 512, ['images:read', 'images:write', 'jobs:write', 'media:previews:write']),
  jobFailed: { entry: 'job-failed', access: ['jobs:write'], memoryMb: 256, timeoutSeconds: 15 },
} as const satisfies Record<string, TaskDef>;
export type TaskName = keyof typeof TASKS;

/** One Lambda per task (lambdas/tasks/<entry>.ts), with the grants its access names. */
function taskFunctions<N extends string>(
  scope: Construct,
  defs: Record<N, TaskDef>,
  props: PipelinesProps,
): Record<N, lambda.Function> {
  const out = {} as Record<N, lambda.Function>;
  for (const [name, t] of Object.entries(defs) as [N, TaskDef][]) {
    const fn = handlerFunction(scope, `${name[0].toUpperCase()}${name.slice(1)}Task`, {
      entry: `lambdas/tasks/${t.entry}.ts`,
      environment: props.environment,
      memoryMb: t.memoryMb,
      timeoutSeconds: t.timeoutSeconds,
      sharp: t.sharp,
    });
    props.grant(fn, t.access);
    out[name] = fn;
  }
  return out;
}

/** A Task state calling a function directly (payload in, payload out), so its Resource is the function's ARN. */
/** A machine's task functions, and `invoke`: a state calling one within its own timeout. */
export function machineTasks<N extends string>(
  scope: Construct,
  defs: Record<N, TaskDef>,
  props: PipelinesProps,
  defaultResultPath?: string,
) {
  const functions = taskFunctions(scope, defs, props);
  const invoke = (name: N, stateName: string, resultPath: string | undefined = defaultResultPath) =>
    lambdaTask(scope, stateName, functions[name], defs[name].timeoutSeconds, resultPath);
  return { functions, invoke };
}

function lambdaTask(
  scope: Construct,
  stateName: string,
  fn: lambda.Function,
  timeoutSeconds: number,
  resultPath: string | undefined,
): tasks.LambdaInvoke {
  const task = new tasks.LambdaInvoke(scope, stateName, {
    lambdaFunction: fn,
    payloadResponseOnly: true,
    resultPath: resultPath === undefined ? sfn.JsonPath.DISCARD : resultPath,
    // Ours below, so that throttling (TooManyRequestsException) is among them, with jitter.
    retryOnServiceExceptions: false,
    taskTimeout: sfn.Timeout.duration(Duration.seconds(timeoutSeconds + 5)),
  });
  task.addRetry({
    errors: [...LAMBDA_SERVICE_ERRORS],
    interval: Duration.seconds(LAMBDA_RETRY.intervalSeconds),
    backoffRate: LAMBDA_RETRY.backoffRate,
    maxDelay: Duration.seconds(LAMBDA_RETRY.maxDelaySeconds),
    jitterStrategy: sfn.JitterType.FULL,
    maxAttempts: LAMBDA_RETRY.maxAttempts,
  });
  task.addRetry({
    errors: [...LAMBDA_TIMEOUT_ERRORS],
    interval: Duration.seconds(TIMEOUT_RETRY.intervalSeconds),
    backoffRate: TIMEOUT_RETRY.backoffRate,
    jitterStrategy: sfn.JitterType.FULL,
    maxAttempts: TIMEOUT_RETRY.maxAttempts,
  });
  return task;
}

/**
 * Errors of the Lambda service itself (not of our code): the function was throttled (a new account's concurrency is
 * low), or the service or the SDK failed. Every task retries them, first of its retriers.
 */
export const LAMBDA_SERVICE_ERRORS = [
  'Lambda.TooManyRequestsException',
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
] as const;
/** 2 s doubling to at most 60 s, full jitter so throttled tasks do not return together: about 6 minutes in all. */
export const LAMBDA_RETRY = { intervalSeconds: 2, backoffRate: 2, maxDelaySeconds: 60, maxAttempts: 12 };

/**
 * A run that did not finish in time: the function's own timeout (Lambda reports `Sandbox.Timedout`) or the state's
 * (`States.Timeout`). A slow dependency or a busy minute, not a verdict on the order: every task is idempotent, so it
 * runs again before its Catch gives the item up (for a paid image that would be a refund).
 */
export const LAMBDA_TIMEOUT_ERRORS = ['Sandbox.Timedout', 'States.Timeout'] as const;
/** Two more runs, 5 s then about 10 s later (full jitter). */
export const TIMEOUT_RETRY = { intervalSeconds: 5, backoffRate: 2, maxAttempts: 2 };

/** What a previews job waits out with jittered retries rather than failing: no capacity, a throttled engine. */
const PREVIEW_WAITS = [CAPACITY_BUSY, ENGINE_ERRORS.throttled] as const;

/**
 * The asynchronous work, as Step Functions state machines whose tasks are Lambda functions.
 * Jobs machine: one execution per moderation or preview job; its record in the jobs table says where it is.
 */
export class Pipelines extends Construct {
  readonly jobsMachine: sfn.StateMachine;
  readonly functions: Record<TaskName, lambda.Function>;

  constructor(scope: Construct, id: string, props: PipelinesProps) {
    super(scope, id);
    const { functions, invoke } = machineTasks(this, TASKS, props, '$.result');
    this.functions = functions;

    const recordFailure = invoke('jobFailed', 'Record job failure', undefined).next(new sfn.Fail(this, 'Job failed'));
    // Previews wait while paid renders hold a renderer's capacity (lambdas/lib/capacity.ts), or the engine endpoint
    // throttles (its MaxConcurrency is shared with the account's other endpoints): within the job's 10 min.
    const busy = {
      errors: [...PREVIEW_WAITS],
      interval: Duration.seconds(2),
      backoffRate: 2,
      maxDelay: Duration.seconds(30),
      jitterStrategy: sfn.JitterType.FULL,
      maxAttempts: 20,
    };
    const moderate = invoke('moderateImages', 'Moderate images').addCatch(recordFailure, { resultPath: '$.error' });
    const previews = invoke('makePreviews', 'Make previews')
      .addRetry(busy)
      .addCatch(recordFailure, { resultPath: '$.error' });
    const definition = new sfn.Choice(this, 'Job kind')
      .when(sfn.Condition.stringEquals('$.kind', 'moderation'), moderate)
      .when(sfn.Condition.stringEquals('$.kind', 'thumbnail'), previews)
      .otherwise(new sfn.Fail(this, 'Unknown job kind', { error: 'UnknownJobKind' }));

    this.jobsMachine = new sfn.StateMachine(this, 'JobsMachine', {
      definitionBody: sfn.DefinitionBody.fromChainable(definition),
      stateMachineType: sfn.StateMachineType.STANDARD,
      timeout: Duration.minutes(10),
      tracingEnabled: true,
      logs: {
        destination: new logs.LogGroup(this, 'JobsMachineLogs', { retention: logs.RetentionDays.ONE_MONTH }),
        level: sfn.LogLevel.ALL,
        includeExecutionData: false,
      },
    });
  }
}
