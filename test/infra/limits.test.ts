/**
 * What no anonymous caller can run up, and what each role may do (issue 31): the prod template as deployed.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { ROUTES, routeId } from '../../domain/api-routes';
import { configDefault } from '../../domain/config';
import { REPO_ROOT } from '../../domain/repo-paths';
import { ENTRY_METADATA_KEY, ENV, TABLES, type TableName } from '../../domain/wiring';
import { routeThrottle } from '../../lib/api';
import { buildToonZap } from '../../lib/app';
import { ENVIRONMENTS, resolveConfig } from '../../lib/config';
import { IDEMPOTENCY_ACTIONS, TABLE_WRITE_EXTRAS } from '../../lib/grants';

type Json = any;

const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const { main, edge } = buildToonZap(
  app,
  { ...ENVIRONMENTS.prod, engineImageUri: '123456789012.dkr.ecr.eu-west-1.amazonaws.com/toonzap-engine:1' },
  { account: '123456789012', region: 'eu-west-1' },
);
const template = Template.fromStack(main).toJSON();
const resources = template.Resources as Record<string, { Type: string; Properties: Json; Metadata?: Json }>;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

/** Every statement of every inline policy, with the logical ids of the roles it is attached to. */
const statements = ofType('AWS::IAM::Policy').flatMap(([, p]) =>
  (p.Properties.PolicyDocument.Statement as Json[]).map((s) => ({
    roles: (p.Properties.Roles as Json[]).map((r) => r.Ref as string),
    actions: [s.Action].flat() as string[],
    resources: [s.Resource].flat(),
    condition: s.Condition as Json,
  })),
);
const roleOf = (handler: string) =>
  main.getLogicalId(
    main.api.functions[routeId(ROUTES.find((r) => r.handler === handler)!)].role!.node.defaultChild as never,
  );
const actionsOf = (roleId: string) => statements.filter((s) => s.roles.includes(roleId)).flatMap((s) => s.actions);

describe('per-client limits hold', () => {
  test('the site serves IPv4 only: WAF counts one IPv4 address as one client, and cannot count an IPv6 /64', () => {
    const [[, distribution]] = ofType('AWS::CloudFront::Distribution');
    expect(distribution.Properties.DistributionConfig.IPV6Enabled).toBe(false);
  });

  test("uploads and erasure are work routes: the WAF's stricter per-client rule matches them, and only work routes", () => {
    const acl = Object.values(Template.fromStack(edge).toJSON().Resources as Record<string, Json>).find(
      (r) => r.Type === 'AWS::WAFv2::WebACL',
    );
    const rule = acl.Properties.Rules.find((r: Json) => r.Name === 'work-routes-per-ip');
    expect(rule.Statement.RateBasedStatement.AggregateKeyType).toBe('IP');
    const matches = (rule.Statement.RateBasedStatement.ScopeDownStatement.OrStatement.Statements as Json[]).map((s) =>
      s.ByteMatchStatement
        ? (p: string) => p === s.ByteMatchStatement.SearchString
        : (p: string) => new RegExp(s.RegexMatchStatement.RegexString).test(p),
    );
    const counted = (p: string) => matches.some((m) => m(p));
    expect(counted('/api/upload-image')).toBe(true);
    expect(counted('/api/generation/0b6f3c2e-1d4a-4c1e-9f3a-2a7f1e9c8d01/delete')).toBe(true);
    expect(counted('/api/process-moderation')).toBe(true);
    // Reads are not work; a parameter is one path segment, so nothing else matches the erasure pattern.
    expect(counted('/api/generation/0b6f3c2e-1d4a-4c1e-9f3a-2a7f1e9c8d01')).toBe(false);
    expect(counted('/api/generation/a/b/delete')).toBe(false);
    expect(counted('/api/status')).toBe(false);
    expect(counted('/api/stripe-webhook')).toBe(false);
  });
});

describe('paid orders first', () => {
  const [[, stage]] = ofType('AWS::ApiGatewayV2::Stage');
  const settings = stage.Properties.RouteSettings as Record<string, Json>;

  test("the Stripe webhook and the order status have throttles of their own, above the anonymous work routes'", () => {
    const webhook = settings['POST /api/stripe-webhook'];
    expect(webhook).toEqual({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 });
    expect(settings['GET /api/generation/{id}']).toEqual({ ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 });
    for (const route of ROUTES.filter((r) => r.startsWork && r.handler !== 'checkout')) {
      const own = settings[`${route.method} ${route.path}`];
      expect(own).toEqual({ ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 });
      expect(own.ThrottlingRateLimit).toBeLessThan(webhook.ThrottlingRateLimit);
    }
    // Every route setting names a real route, and the stage is updated only after those routes exist.
    const keys = ofType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey);
    expect(Object.keys(settings).every((k) => keys.includes(k))).toBe(true);
    expect(Object.keys(settings).length).toBe(ROUTES.filter((r) => routeThrottle(r)).length);
    const stageEntry = Object.values(resources).find((r) => r.Type === 'AWS::ApiGatewayV2::Stage') as Json;
    expect(stageEntry.DependsOn.length).toBeGreaterThanOrEqual(Object.keys(settings).length);
    // The rest keep the stage's default.
    expect(stage.Properties.DefaultRouteSettings).toMatchObject({
      ThrottlingRateLimit: 100,
      ThrottlingBurstLimit: 200,
    });
  });
});

describe('least privilege', () => {
  test('no Marketplace action anywhere, and no action but Rekognition, X-Ray and GetRandomPassword on "*"', () => {
    expect(statements.some((s) => s.actions.some((a) => a.startsWith('aws-marketplace:')))).toBe(false);
    // The app's roles (CDK's own deploy-time site deployment handler has its grants, acknowledged in lib/nag-acknowledgements.ts).
    const own = statements.filter((s) => !s.roles.some((r) => r.includes('CDKBucketDeployment')));
    const onStar = new Set(own.filter((s) => s.resources.includes('*')).flatMap((s) => s.actions));
    // X-Ray and log delivery (functions' and state machines' tracing and logs) have no resource type either.
    for (const a of onStar)
      expect(a).toMatch(
        /^(xray:|logs:(CreateLogDelivery|GetLogDelivery|UpdateLogDelivery|DeleteLogDelivery|ListLogDeliveries|PutResourcePolicy|DescribeResourcePolicies|DescribeLogGroups)$|rekognition:DetectModerationLabels$|secretsmanager:GetRandomPassword$|ecr:GetAuthorizationToken$)/,
      );
  });

  test('s3:ListBucket only with an s3:prefix under one media prefix, never on the whole bucket', () => {
    const media = main.getLogicalId(main.storage.media.node.defaultChild as never);
    const lists = statements.filter(
      (s) => s.actions.some((a) => a.startsWith('s3:List')) && JSON.stringify(s.resources).includes(media),
    );
    expect(lists.length).toBeGreaterThan(0);
    for (const s of lists) {
      expect(s.actions).toEqual(['s3:ListBucket']);
      // Not StringLikeIfExists: a listing that names no prefix carries no s3:prefix key, and IfExists would pass it.
      expect(Object.keys(s.condition)).toEqual(['StringLike']);
      const prefixes = [s.condition?.StringLike?.['s3:prefix']].flat();
      expect(prefixes.length).toBeGreaterThan(0);
      for (const p of prefixes) expect(p).toMatch(/^[a-z]+\/\*$/);
    }
    // The upload route lists under uploads/ only.
    const upload = lists.filter((s) => s.roles.includes(roleOf('upload-image')));
    expect(upload.flatMap((s) => s.condition.StringLike['s3:prefix'])).toEqual(['uploads/*']);
  });

  test('table grants: no Scan anywhere, not even for erasure; deletes and batch writes only where code calls them', () => {
    const dynamo = statements.filter((s) => s.actions.some((a) => a.startsWith('dynamodb:')));
    const all = new Set(dynamo.flatMap((s) => s.actions));
    for (const forbidden of ['dynamodb:Scan', 'dynamodb:BatchGetItem', 'dynamodb:DescribeTable'])
      expect(all.has(forbidden)).toBe(false);
    expect(actionsOf(roleOf('delete-order-data'))).not.toContain('dynamodb:Scan');
    expect([...new Set(actionsOf(roleOf('get-generation')).filter((a) => a.startsWith('dynamodb:')))].sort()).toEqual([
      'dynamodb:GetItem',
      'dynamodb:Query',
    ]);
    // DeleteItem and BatchWriteItem only on the tables TABLE_WRITE_EXTRAS names, and the idempotency records' DeleteItem.
    const tableOf = (logicalId: string) =>
      (Object.keys(TABLES) as TableName[]).find(
        (t) => main.getLogicalId(main.storage.tables[t].node.defaultChild as never) === logicalId,
      );
    for (const s of dynamo) {
      const tables = s.resources.map((r: Json) =>
        tableOf(r['Fn::GetAtt']?.[0] ?? r['Fn::Join']?.[1]?.[0]?.['Fn::GetAtt']?.[0]),
      );
      for (const extra of ['dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'])
        if (s.actions.includes(extra))
          for (const t of tables)
            expect(t === 'events' ? IDEMPOTENCY_ACTIONS : (TABLE_WRITE_EXTRAS[t as TableName] ?? [])).toContain(extra);
    }
  });

  test('TABLE_WRITE_EXTRAS covers every DeleteCommand and BatchWriteCommand the handlers send (this fails when code adds one)', () => {
    const dir = path.join(REPO_ROOT, 'lambdas');
    const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const needed: Record<string, Set<string>> = {};
    for (const f of files) {
      const code = fs.readFileSync(path.join(dir, f), 'utf8');
      const own = /const table = \(\) => settings\.table\('(\w+)'\)/.exec(code)?.[1];
      for (const [command, action] of [
        ['DeleteCommand', 'dynamodb:DeleteItem'],
        ['BatchWriteCommand', 'dynamodb:BatchWriteItem'],
      ]) {
        for (const m of code.matchAll(
          new RegExp(`new ${command}\\(\\{[^}]*?(?:settings\\.table\\('(\\w+)'\\)|(table\\(\\)))`, 'g'),
        )) {
          const t = m[1] ?? own;
          expect(t).toBeDefined();
          needed[t!] ??= new Set();
          needed[t!].add(action);
        }
        // A batch names its table as a computed key: `{ [table()]: rows }`.
        if (command === 'BatchWriteCommand' && code.includes(`new ${command}(`) && own) {
          needed[own] ??= new Set();
          needed[own].add(action);
        }
      }
      expect(code).not.toMatch(/new (Scan|BatchGet|TransactWrite|TransactGet)Command\(/);
    }
    for (const [t, actions] of Object.entries(needed))
      for (const a of actions) expect(TABLE_WRITE_EXTRAS[t as TableName] ?? []).toContain(a);
    expect(Object.keys(needed).sort()).toEqual(Object.keys(TABLE_WRITE_EXTRAS).sort());
  });

  test('the events table: exactly the calls of the installed idempotency persistence layer, for the work done once', () => {
    const layer = fs.readFileSync(require.resolve('@aws-lambda-powertools/idempotency/dynamodb'), 'utf8');
    const calls = [...new Set([...layer.matchAll(/new (?:\w+\.)?(\w+Item)Command\(/g)].map((m) => `dynamodb:${m[1]}`))];
    expect(calls.length).toBeGreaterThan(0);
    expect([...IDEMPOTENCY_ACTIONS].sort()).toEqual(calls.sort());
    const events = main.getLogicalId(main.storage.tables.events.node.defaultChild as never);
    const onEvents = statements.filter((s) => JSON.stringify(s.resources).includes(`"${events}"`));
    for (const s of onEvents) expect([...s.actions].sort()).toEqual(calls);
    // The webhook (each event once) and every function that may send the order e-mail (once per generation).
    const roleId = (fn: lambda.Function) => main.getLogicalId(fn.role!.node.defaultChild as never);
    expect([...new Set(onEvents.flatMap((s) => s.roles))].sort()).toEqual(
      [
        roleOf('stripe-webhook'),
        roleId(main.orderPipeline.functions.orderEmail),
        roleId(main.orderPipeline.functions.orderFailed),
        roleId(main.schedules.functions.reconcile),
      ].sort(),
    );
  });

  test("the origin secret is in no function's environment: route functions get its ARN and may read it, nothing more", () => {
    const secretId = ofType('AWS::SecretsManager::Secret')
      .map(([id]) => id)
      .find((id) => id.startsWith('OriginSecret'))!;
    for (const [, fn] of ofType('AWS::Lambda::Function')) {
      const vars = fn.Properties.Environment?.Variables ?? {};
      expect(vars[ENV.originVerifySecret]).toBeUndefined();
      expect(JSON.stringify(vars)).not.toContain('resolve:secretsmanager');
    }
    const routeFns = ofType('AWS::Lambda::Function').filter(([, f]) =>
      String(f.Metadata?.[ENTRY_METADATA_KEY]).startsWith('lambdas/routes/'),
    );
    expect(routeFns.length).toBe(ROUTES.length);
    for (const [, fn] of routeFns)
      expect(fn.Properties.Environment.Variables[ENV.originSecretArn]).toEqual({ Ref: secretId });
    for (const route of ROUTES) {
      const reads = statements.filter(
        (s) => s.roles.includes(roleOf(route.handler)) && JSON.stringify(s.resources).includes(secretId),
      );
      expect(reads.flatMap((s) => s.actions).sort()).toEqual([
        'secretsmanager:DescribeSecret',
        'secretsmanager:GetSecretValue',
      ]);
    }
    // CloudFront sends it (resolved at deploy), and it is rotated by a function that may update that distribution only.
    expect(JSON.stringify(ofType('AWS::CloudFront::Distribution'))).toContain(`{{resolve:secretsmanager:`);
    const [[, schedule]] = ofType('AWS::SecretsManager::RotationSchedule');
    expect(schedule.Properties.SecretId).toEqual({ Ref: secretId });
    expect(schedule.Properties.RotationRules.ScheduleExpression).toBe('rate(30 days)');
    const rotator = main.getLogicalId(main.originSecretRotation.role!.node.defaultChild as never);
    const cf = statements.filter(
      (s) => s.roles.includes(rotator) && s.actions.some((a) => a.startsWith('cloudfront:')),
    );
    expect(cf.flatMap((s) => s.actions)).toEqual(['cloudfront:GetDistributionConfig', 'cloudfront:UpdateDistribution']);
    expect(JSON.stringify(cf[0].resources)).toContain('distribution/');
  });
});

describe("the operator's numbers", () => {
  test('a monthly AWS Budgets cost budget tells the alarm topic at 80 % actual and 100 % forecast', () => {
    const [[, budget]] = ofType('AWS::Budgets::Budget');
    expect(budget.Properties.Budget).toMatchObject({
      BudgetType: 'COST',
      TimeUnit: 'MONTHLY',
      BudgetLimit: { Amount: configDefault('monthlyBudgetUsd'), Unit: 'USD' },
    });
    const topic = { Ref: main.getLogicalId(main.monitoring.topic.node.defaultChild as never) };
    const notes = budget.Properties.NotificationsWithSubscribers as Json[];
    expect(notes.map((n) => [n.Notification.NotificationType, n.Notification.Threshold])).toEqual([
      ['ACTUAL', 80],
      ['FORECASTED', 100],
    ]);
    for (const n of notes) expect(n.Subscribers).toEqual([{ SubscriptionType: 'SNS', Address: topic }]);
    // Budgets may publish to the topic.
    const policy = ofType('AWS::SNS::TopicPolicy').map(([, p]) => JSON.stringify(p.Properties));
    expect(policy.some((p) => p.includes('budgets.amazonaws.com') && p.includes('sns:Publish'))).toBe(true);
    // -c monthlyBudgetUsd=... is read and checked.
    const ctx = (extra: Record<string, string>) => (k: string) => ({ env: 'prod', ...extra })[k];
    expect(resolveConfig(ctx({ monthlyBudgetUsd: '750' })).monthlyBudgetUsd).toBe(750);
    expect(() => resolveConfig(ctx({ monthlyBudgetUsd: '-5' }))).toThrow(
      /monthlyBudgetUsd must be a number of US dollars > 0/,
    );
  });

  test('the dashboard shows spend-driving counts per day', () => {
    const [[, dashboard]] = ofType('AWS::CloudWatch::Dashboard');
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    expect(body).toContain('Spend drivers per day');
    for (const label of ['Bedrock model calls', 'Engine renders', 'Rekognition calls', 'Uploads asked for'])
      expect(body).toContain(label);
    expect(body).toContain('SampleCount');
    expect(body).toContain('86400');
  });
});
