import { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as targets from 'aws-cdk-lib/aws-scheduler-targets';
import { Construct } from 'constructs';
import { handlerFunction } from './functions';
import type { PipelinesProps, TaskDef } from './pipelines';

/** What the schedules need from the stack: the same as the pipelines' tasks. */
export type SchedulesProps = PipelinesProps;

/**
 * Scheduled functions: lambdas/schedules/<entry>.ts, each run by an EventBridge Scheduler schedule. The local runtime
 * reads the schedules back from the template and runs the same handlers at start and on the same rate.
 *
 * reconcile: every 5 minutes, so an order a crash left behind waits minutes, not days (Stripe's own redelivery backs
 * off to hours); a pass reads only the last 3 days of completed sessions, so 4 minutes is ample, and two passes
 * overlapping would still be harmless (every repair is idempotent).
 */
const SCHEDULED = {
  reconcile: {
    entry: 'reconcile',
    every: Duration.minutes(5),
    access: [
      'orders:write',
      'generations:write',
      'shares:write',
      'pipeline:manage',
      'payments:secret',
      'mail',
      'idempotency',
    ],
    memoryMb: 512,
    timeoutSeconds: 240,
  },
} as const satisfies Record<string, TaskDef & { every: Duration }>;

export class Schedules extends Construct {
  readonly functions: Record<keyof typeof SCHEDULED, lambda.Function>;

  constructor(scope: Construct, id: string, props: SchedulesProps) {
    super(scope, id);
    this.functions = {} as Record<keyof typeof SCHEDULED, lambda.Function>;
    for (const [name, def] of Object.entries(SCHEDULED) as [
      keyof typeof SCHEDULED,
      (typeof SCHEDULED)[keyof typeof SCHEDULED],
    ][]) {
      const title = `${name[0].toUpperCase()}${name.slice(1)}`;
      const fn = handlerFunction(this, `${title}Function`, {
        entry: `lambdas/schedules/${def.entry}.ts`,
        environment: props.environment,
        memoryMb: def.memoryMb,
        timeoutSeconds: def.timeoutSeconds,
      });
      props.grant(fn, def.access);
      new scheduler.Schedule(this, `${title}Schedule`, {
        schedule: scheduler.ScheduleExpression.rate(def.every),
        description: `Runs lambdas/schedules/${def.entry}.ts`,
        // A missed run is simply the next one; no retries pile up behind a slow pass.
        target: new targets.LambdaInvoke(fn, { retryAttempts: 0, maxEventAge: def.every }),
      });
      this.functions[name] = fn;
    }
  }
}
