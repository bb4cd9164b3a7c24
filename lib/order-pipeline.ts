import { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { orderTimeline } from '../domain/orders';
import {
  ENGINE_RETRYABLE,
  GENERATIVE_ERRORS,
  GENERATIVE_RETRYABLE,
  GENERATIVE_TRIES,
  WAIT_FOR_CAPACITY,
} from '../domain/wiring';
import { machineTasks, type PipelinesProps, renderTask, type TaskDef } from './pipelines';

export interface OrderPipelineProps extends PipelinesProps {
  /** lib/config.ts orderDeadlineMinutes: how long items may wait for capacity before they are refunded. */
  readonly orderDeadlineMinutes: number;
}

/** Task functions of the order pipeline: lambdas/tasks/<entry>.ts, each with what it may touch. */
const ORDER_TASKS = {
  orderPrepare: {
    entry: 'order-prepare',
    access: ['generations:write', 'images:write', 'media:uploads:read', 'media:uploads:delete', 'rekognition'],
    memoryMb: 1024,
    timeoutSeconds: 120,
  },
  // Generative renders read the photo and write the preview or output themselves (the engine does both in SageMaker);
  // a paid model image the quality gate fails is deleted.
  orderPreviews: renderTask('order-previews', 512, ['generations:read', 'images:write', 'media:previews:write']),
  generateItem: renderTask('generate-item', 1024, [
    'generations:write',
    'images:write',
    'media:outputs:read',
    'media:outputs:write',
    'media:outputs:delete',
  ]),
  itemFailed: { entry: 'item-failed', access: ['generations:write'], memoryMb: 256, timeoutSeconds: 15 },
  orderFinalize: {
    entry: 'order-finalize',
    access: ['generations:write', 'payments:secret'],
    memoryMb: 256,
    timeoutSeconds: 60,
  },
  orderEmail: {
    entry: 'order-email',
    access: ['generations:write', 'orders:read', 'mail', 'idempotency'],
    memoryMb: 256,
    timeoutSeconds: 20,
  },
  orderFailed: {
    entry: 'order-failed',
    access: ['generations:write', 'orders:read', 'payments:secret', 'mail', 'idempotency'],
    memoryMb: 256,
    timeoutSeconds: 60,
  },
} as const satisfies Record<string, TaskDef>;
type OrderTaskName = keyof typeof ORDER_TASKS;

/**
 * Bedrock service errors (lambdas/lib/bedrock.ts): a few attempts with backoff, since a failed model call often
 * passes at once. Content filtered or refused input is not among them: never retried. Throttling is waited out.
 */
export const GENERATIVE_RETRY = {
  errors: [...GENERATIVE_RETRYABLE],
  intervalSeconds: 2,
  backoffRate: 2,
  maxAttempts: 4,
};

/**
 * Waiting for capacity (domain/wiring.ts WAIT_FOR_CAPACITY: no slot or request left, a throttled renderer, a
 * misconfigured model): 5 s doubling to at most 30 s, full jitter (AWS's advice: waiting items do not come back
 * together). Each attempt waits 15 s on average; generate-item ends the wait itself at the order's deadline (it fails
 * the item, which is refunded), so the attempts are counted to outlast the deadline many times over (each wait
 * below a quarter of the cap is unlikely: a sum of uniform waits) and never end it early.
 */
export function waitRetry(deadlineMinutes: number) {
  const maxDelaySeconds = 30;
  return {
    errors: [...WAIT_FOR_CAPACITY],
    intervalSeconds: 5,
    backoffRate: 2,
    maxDelaySeconds,
    maxAttempts: Math.ceil((orderTimeline(deadlineMinutes).deadlineSeconds / maxDelaySeconds) * 4),
  };
}
/** Concurrent engine renders per order; the serverless endpoint's concurrency is shared by all orders. */
export const ORDER_MAX_CONCURRENCY = 3;

/**
 * Order machine: one execution per paid order, named after the order id (a replayed webhook cannot start a second).
 *
 *   Prepare order (verify + moderate again) → Make previews (Map over the allowed photos, best effort) → Generate
 *   images (Map over every pending (photo, style): Generate image, waiting for capacity until the order's deadline,
 *   retried on engine and model errors, Catch → Record item failure) → Finalize order (refund the failed items,
 *   final status) → Send order e-mail → done.
 *   Any step failing → Order failed (refund what was not delivered, mark the generation, e-mail) → Fail.
 *
 * Every task is idempotent: the local runtime and Step Functions' own retries may run any of them again.
 */
export class OrderPipeline extends Construct {
  readonly machine: sfn.StateMachine;
  readonly functions: Record<OrderTaskName, lambda.Function>;

  constructor(scope: Construct, id: string, props: OrderPipelineProps) {
    super(scope, id);
    const { functions, invoke } = machineTasks(this, ORDER_TASKS, props);
    this.functions = functions;
    // Transient trouble (a table or Stripe hiccup) gets a second chance before the order is given up.
    const transient = { errors: ['States.TaskFailed'], interval: Duration.seconds(2), backoffRate: 2, maxAttempts: 2 };

    const orderFailed = invoke('orderFailed', 'Order failed', '$.outcome')
      .addRetry(transient)
      .next(
        new sfn.Fail(this, 'Order pipeline failed', {
          error: 'OrderFailed',
          cause: 'See the generation record: undelivered items were refunded',
        }),
      );
    const onFailure = { resultPath: '$.error' };

    const prepare = invoke('orderPrepare', 'Prepare order', '$.prepared')
      .addRetry(transient)
      .addCatch(orderFailed, onFailure);
    // One photo per iteration (a slow photo cannot time out the others); best effort, so a photo that fails is skipped.
    const previews = new sfn.Map(this, 'Make previews', {
      itemsPath: '$.prepared.allowed',
      itemSelector: {
        order_id: sfn.JsonPath.stringAt('$.order_id'),
        image_hash: sfn.JsonPath.stringAt('$$.Map.Item.Value'),
      },
      maxConcurrency: ORDER_MAX_CONCURRENCY,
      resultPath: sfn.JsonPath.DISCARD,
    }).itemProcessor(
      invoke('orderPreviews', 'Make photo previews').addCatch(new sfn.Pass(this, 'Previews skipped'), {
        resultPath: '$.error',
      }),
    );

    const wait = waitRetry(props.orderDeadlineMinutes);
    const generate = invoke('generateItem', 'Generate image')
      .addRetry({
        errors: wait.errors,
        interval: Duration.seconds(wait.intervalSeconds),
        backoffRate: wait.backoffRate,
        maxDelay: Duration.seconds(wait.maxDelaySeconds),
        jitterStrategy: sfn.JitterType.FULL,
        maxAttempts: wait.maxAttempts,
      })
      .addRetry({ errors: [...ENGINE_RETRYABLE], interval: Duration.seconds(1), backoffRate: 2, maxAttempts: 2 }) // 3 attempts in all
      .addRetry({
        errors: GENERATIVE_RETRY.errors,
        interval: Duration.seconds(GENERATIVE_RETRY.intervalSeconds),
        backoffRate: GENERATIVE_RETRY.backoffRate,
        maxAttempts: GENERATIVE_RETRY.maxAttempts,
      })
      // A paid generative image the quality gate failed, with tries left (generate-item counts them on the item).
      .addRetry({
        errors: [GENERATIVE_ERRORS.qualityRetry],
        interval: Duration.seconds(1),
        backoffRate: 1,
        maxAttempts: GENERATIVE_TRIES - 1,
      })
      // A refusal never passes (another paid model call would say the same): failed at once, before the next retrier.
      .addRetry({ errors: [GENERATIVE_ERRORS.refused, GENERATIVE_ERRORS.rendererChanged], maxAttempts: 0 })
      // Anything else (a table or bucket error past the SDK's own retries) gets a second chance, not a refund.
      .addRetry(transient)
      .addCatch(invoke('itemFailed', 'Record item failure').addRetry(transient), { resultPath: '$.error' });
    const generateAll = new sfn.Map(this, 'Generate images', {
      itemsPath: '$.prepared.items',
      maxConcurrency: ORDER_MAX_CONCURRENCY,
      resultPath: sfn.JsonPath.DISCARD,
    })
      .itemProcessor(generate)
      .addCatch(orderFailed, onFailure);

    const finalize = invoke('orderFinalize', 'Finalize order', '$.outcome')
      .addRetry(transient)
      .addCatch(orderFailed, onFailure);
    const email = invoke('orderEmail', 'Send order e-mail')
      // Another run is sending the e-mail (lambdas/lib/mail.ts): wait until it has sent or its time ran out (this
      // task's own timeout when it was an earlier attempt of it).
      .addRetry({ errors: ['EmailInProgress'], interval: Duration.seconds(5), backoffRate: 1, maxAttempts: 8 })
      .addRetry(transient)
      .addCatch(orderFailed, onFailure);

    const definition = prepare
      .next(previews)
      .next(generateAll)
      .next(finalize)
      .next(email)
      .next(new sfn.Succeed(this, 'Order done'));

    this.machine = new sfn.StateMachine(this, 'OrderMachine', {
      definitionBody: sfn.DefinitionBody.fromChainable(definition),
      stateMachineType: sfn.StateMachineType.STANDARD,
      timeout: Duration.seconds(orderTimeline(props.orderDeadlineMinutes).pipelineTimeoutSeconds),
      tracingEnabled: true,
      logs: {
        destination: new logs.LogGroup(this, 'OrderMachineLogs', { retention: logs.RetentionDays.ONE_MONTH }),
        level: sfn.LogLevel.ALL,
        includeExecutionData: false,
      },
    });
  }
}
