import { DefaultStackSynthesizer, type Stack, Token, Validations } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { IConstruct } from 'constructs';
import { MEDIA_PREFIX } from '../domain/wiring';

/**
 * cdk-nag AwsSolutions findings that stay, each acknowledged on the construct it concerns with the reason
 * (test/infra/nag.test.ts runs the checks and expects none unacknowledged). Weaknesses were fixed instead:
 * per-prefix media grants, scoped ECR/SES/Step Functions grants, access logs, Step Functions logging, WAF.
 */
export interface NagTargets {
  readonly stack: Stack;
  readonly api: IConstruct;
  readonly machines: readonly { machine: sfn.StateMachine; functions: readonly lambda.IFunction[] }[];
  readonly engineRole: IConstruct;
  readonly originSecretRotation: lambda.IFunction;
  readonly alarmTopic: IConstruct;
  readonly distribution: IConstruct;
  readonly hasCertificate: boolean;
  readonly describesJobs: readonly IConstruct[];
  readonly jobsMachine: sfn.StateMachine;
  readonly mediaBucket: s3.Bucket;
  readonly siteBucket: s3.Bucket;
  readonly orderMachine: sfn.StateMachine;
  /** Functions EventBridge Scheduler invokes (lib/schedules.ts). */
  readonly scheduled: readonly lambda.IFunction[];
}

const ack = (scope: IConstruct, id: string, reason: string) =>
  Validations.of(scope).acknowledge({ id: `AwsSolutions-${id}`, reason });

export function acknowledgeNagFindings(t: NagTargets): void {
  // A finding names the account and region as cdk-nag prints them: the value, or <AWS::AccountId> / <AWS::Region>
  // when unresolved (a synth without credentials), since an acknowledgement id must be a plain string.
  const account = Token.isUnresolved(t.stack.account) ? '<AWS::AccountId>' : t.stack.account;
  const region = Token.isUnresolved(t.stack.region) ? '<AWS::Region>' : t.stack.region;
  ack(
    t.stack,
    'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    "Lambda's basic execution role only lets a function write its own CloudWatch logs; AWS maintains it. All data access is in inline policies made from each function's declared access (domain/api-routes.ts).",
  );
  ack(
    t.stack,
    'L1',
    'Functions run on nodejs22.x, a supported Node.js LTS runtime (AWS deprecation 2027-04-30); the bundle target and the local runtime match it. Moving to nodejs24.x is its own tested change.',
  );
  for (const prefix of Object.values(MEDIA_PREFIX)) {
    ack(
      t.stack,
      `IAM5[Resource::<${t.stack.getLogicalId(t.mediaBucket.node.defaultChild as s3.CfnBucket)}.Arn>/${prefix}*]`,
      `Objects under ${prefix} are keyed by content hash, so a grant cannot name them in advance; each grant is one action (GetObject, PutObject or DeleteObject) on this prefix only (lib/storage.ts grantMedia).`,
    );
  }
  ack(
    t.api,
    'APIG4',
    'The API is public by design: visitors buy without accounts. It is reachable only through CloudFront (origin secret), rate-limited per client by the WAF, and every handler validates its input.',
  );
  for (const { machine, functions } of t.machines) {
    ack(
      machine.role,
      'IAM5[Resource::*]',
      'Active tracing (xray:PutTraceSegments, PutTelemetryRecords, GetSamplingRules/Targets) and CloudWatch Logs log delivery (logs:CreateLogDelivery and friends) support no resource-level permissions.',
    );
    for (const fn of functions) {
      ack(
        machine.role,
        `IAM5[Resource::<${t.stack.getLogicalId(fn.node.defaultChild as lambda.CfnFunction)}.Arn>:*]`,
        "The state machine invokes this one function; `:*` covers its versions and aliases, as Step Functions' Lambda task requires.",
      );
    }
  }
  ack(
    t.engineRole,
    'IAM5[Resource::*]',
    "ecr:GetAuthorizationToken has no resource-level permissions; image pulls (BatchGetImage, GetDownloadUrlForLayer) are granted on the engine's repository only.",
  );
  for (const fn of t.describesJobs) {
    ack(
      fn,
      `IAM5[Resource::arn:<AWS::Partition>:states:${region}:${account}:execution:<${t.stack.getLogicalId(t.jobsMachine.node.defaultChild as sfn.CfnStateMachine)}.Name>:*]`,
      "states:DescribeExecution on the jobs machine's executions only (one per job, named by job id, so not known in advance); the function cannot start any.",
    );
  }
  const orderExecutions = `execution:<${t.stack.getLogicalId(t.orderMachine.node.defaultChild as sfn.CfnStateMachine)}.Name>:*`;
  for (const fn of t.scheduled) {
    ack(
      fn.role!,
      `IAM5[Resource::arn:<AWS::Partition>:states:${region}:${account}:${orderExecutions}]`,
      "The reconciler describes an order's execution and stops one stuck past its deadline: executions of the order machine only (one per order, named by order id, so not known in advance).",
    );
  }
  // The one role EventBridge Scheduler assumes for all Lambda targets (made by CDK at stack level).
  for (const role of t.stack.node.children.filter((c) => c.node.id.startsWith('SchedulerRoleForTarget'))) {
    for (const fn of t.scheduled) {
      ack(
        role,
        `IAM5[Resource::<${t.stack.getLogicalId(fn.node.defaultChild as lambda.CfnFunction)}.Arn>:*]`,
        'EventBridge Scheduler invokes this one scheduled function; `:*` covers its versions and aliases, as the Lambda target grant is made.',
      );
    }
  }
  ack(
    t.originSecretRotation.role!,
    'IAM5[Resource::*]',
    "secretsmanager:GetRandomPassword (granted by CDK's rotation schedule) has no resource type in IAM; the function's secret actions are on the origin secret only, and CloudFront's on the one distribution.",
  );
  ack(
    t.alarmTopic,
    'SNS2',
    'Alarm notifications carry no personal data; CloudWatch alarms cannot publish to a topic encrypted with the AWS managed SNS key, and a customer managed key would cost more than the risk. The topic enforces TLS (SNS3).',
  );
  ack(t.distribution, 'CFR1', 'ToonZap is sold worldwide; there is no legal or business reason to block countries.');
  if (!t.hasCertificate) {
    ack(
      t.distribution,
      'CFR4',
      'No custom domain is configured, so CloudFront serves *.cloudfront.net with its default certificate, whose minimum protocol cannot be raised. Setting siteDomain and siteCertificateArn makes the distribution require TLSv1.2_2021 (tested).',
    );
  }
  // CDK's BucketDeployment handler (a singleton function at stack level, run only during a deploy).
  for (const child of t.stack.node.children.filter((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'))) {
    const assets = `cdk-${DefaultStackSynthesizer.DEFAULT_QUALIFIER}-assets-${account}-${region}`;
    const findings = [
      'Action::s3:GetObject*',
      'Action::s3:GetBucket*',
      'Action::s3:List*',
      'Action::s3:DeleteObject*',
      'Action::s3:Abort*',
      `Resource::arn:<AWS::Partition>:s3:::${assets}/*`,
      `Resource::<${t.stack.getLogicalId(t.siteBucket.node.defaultChild as s3.CfnBucket)}.Arn>/*`,
      'Resource::*',
    ];
    for (const finding of findings) {
      ack(
        child,
        `IAM5[${finding}]`,
        "CDK's own site deployment handler, run only during a deploy: it reads the built site from CDK's asset bucket, syncs it into the site bucket (deleting stale files) and invalidates the distribution (no resource scope in IAM); these are CDK's grants for exactly that.",
      );
    }
  }
}
