import { ArnFormat, type Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { Access } from '../domain/api-routes';
import { senderIdentities } from '../domain/email';
import { MEDIA_PREFIX, TABLE_INDEXES, TABLES, type TableName } from '../domain/wiring';
import { bedrockModelArns } from './bedrock-access';
import type { EnvConfig } from './config';
import type { EngineEndpoint } from './engine-endpoint';
import { grantMedia, type Storage } from './storage';

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
function sesIdentityArns(stack: Stack, mailFrom: string): string[] {
  const { address, domain } = senderIdentities(mailFrom);
  return [address, domain].map((identity) =>
    stack.formatArn({ service: 'ses', resource: 'identity', resourceName: identity }),
  );
}

/** What the grants are made on. The machines are asked for when a grant needs one: they are made after some functions. */
export interface GrantTargets {
  readonly stack: Stack;
  readonly config: EnvConfig;
  readonly storage: Storage;
  readonly engine: EngineEndpoint;
  jobsMachine(): sfn.StateMachine;
  orderMachine(): sfn.StateMachine;
}

/** The one place where declared access (domain/api-routes.ts `Access`) becomes IAM permissions. */
export class Grants {
  private stripeSecret?: secretsmanager.ISecret;

  constructor(private readonly targets: GrantTargets) {}

  grant(fn: lambda.Function, access: readonly Access[]): void {
    const { stack, config, storage, engine } = this.targets;
    const { tables, media } = storage;
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
        const machine = this.targets.jobsMachine();
        if (verb === 'start') machine.grantStartExecution(fn);
        // Looking at an execution (GET /api/jobs/{id} checks a stalled job) must not be able to start one.
        else
          fn.addToRolePolicy(
            new iam.PolicyStatement({
              actions: ['states:DescribeExecution'],
              resources: [executionArns(stack, machine)],
            }),
          );
      } else if (resource === 'pipeline') {
        this.targets.orderMachine().grantStartExecution(fn);
        if (verb === 'manage') {
          // The reconciler: looks at an order's execution, and stops one stuck past its deadline.
          fn.addToRolePolicy(
            new iam.PolicyStatement({
              actions: ['states:DescribeExecution', 'states:StopExecution'],
              resources: [executionArns(stack, this.targets.orderMachine())],
            }),
          );
        }
      } else if (resource === 'payments') {
        // Only real Stripe keys live in Secrets Manager; other modes have no secret to read.
        if (config.paymentMode === 'stripe') {
          this.stripeSecret ??= secretsmanager.Secret.fromSecretNameV2(stack, 'StripeSecret', config.stripeSecretName);
          this.stripeSecret.grantRead(fn);
        }
      } else if (resource === 'mail') {
        // Only the configured sender identity (the address and its domain, whichever of the two is verified in SES).
        fn.addToRolePolicy(
          new iam.PolicyStatement({
            actions: ['ses:SendEmail'],
            resources: sesIdentityArns(stack, config.mailFrom),
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
        const arns = bedrockModelArns(config, stack.account, stack.partition);
        if (arns.length) {
          // No Marketplace actions: the operator subscribes the account once (lib/bedrock-access.ts, preflight).
          fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['bedrock:InvokeModel'], resources: arns }));
        }
      } else if (resource === 'engine') {
        fn.addToRolePolicy(
          new iam.PolicyStatement({ actions: ['sagemaker:InvokeEndpoint'], resources: [engine.endpointArn] }),
        );
      } else {
        throw new Error(`No grant for access "${a}"`);
      }
    }
  }
}
