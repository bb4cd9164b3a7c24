import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ENTRY_METADATA_KEY } from '../../domain/wiring';
import { ENVIRONMENTS, type EnvConfig, resolveConfig } from '../../lib/config';
import { ToonZapStack } from '../../lib/toonzap-stack';
import { type CfnTemplate, readModel } from '../../local/template';

function synth(config: Partial<EnvConfig> = {}) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new ToonZapStack(app, 'Test', {
    config: { ...ENVIRONMENTS.prod, ...config },
    env: { account: '123456789012', region: 'eu-west-1' },
  });
  return Template.fromStack(stack);
}

type Json = any;

describe('order pipeline stack', () => {
  const template = synth();
  const resources = template.toJSON().Resources as Record<string, Json>;
  const model = readModel(template.toJSON() as CfnTemplate, (_id, attr) =>
    attr === 'DomainName' ? 'd111.cloudfront.net' : undefined,
  );
  const machine = model.stateMachines.find((m) => m.logicalId.startsWith('OrderPipelineOrderMachine'))!;
  const states = machine.definition.States as Record<string, Json>;
  const entryOf = (arn: string) => model.functions.get(arn.split(':function:')[1])!.entry;

  test('a standard state machine of Lambda tasks: prepare → previews → map → finalize → e-mail', () => {
    expect(resources[machine.logicalId].Properties.StateMachineType).toBe('STANDARD');
    const order = [];
    for (let name: string | undefined = machine.definition.StartAt; name; name = states[name].Next) order.push(name);
    expect(order).toEqual([
      'Prepare order',
      'Make previews',
      'Generate images',
      'Finalize order',
      'Send order e-mail',
      'Order done',
    ]);
    const map = states['Generate images'];
    expect(map.Type).toBe('Map');
    expect(map.MaxConcurrency).toBeGreaterThanOrEqual(2);
    expect(map.MaxConcurrency).toBeLessThanOrEqual(4);
    const generate = map.ItemProcessor.States['Generate image'];
    expect(entryOf(generate.Resource)).toBe('lambdas/tasks/generate-item.ts');
    expect(generate.Retry).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          ErrorEquals: ['EngineModelError', 'EngineUnavailable'],
          BackoffRate: 2,
          MaxAttempts: 2,
        }),
        // The quality gate's new tries of a generative image: 3 in all.
        expect.objectContaining({ ErrorEquals: ['GenerativeQualityRetry'], MaxAttempts: 2 }),
      ]),
    );
    // A refusal is failed at once; any other error (a table or bucket hiccup) is tried again, not refunded: the catch-all
    // comes last, since Step Functions uses the first retrier that matches.
    const names = (generate.Retry as Json[]).map((r) => r.ErrorEquals.join());
    const refused = (generate.Retry as Json[]).find((r) => r.ErrorEquals.includes('GenerativeRefused'));
    expect(refused).toEqual({ ErrorEquals: ['GenerativeRefused', 'RendererChanged'], MaxAttempts: 0 });
    expect(names.at(-1)).toBe('States.TaskFailed');
    expect(generate.Retry.at(-1).MaxAttempts).toBeGreaterThan(0);
    expect(entryOf(map.ItemProcessor.States[generate.Catch[0].Next].Resource)).toBe('lambdas/tasks/item-failed.ts');
    // Previews are made per photo, and a photo whose previews fail is skipped (best effort), never the order.
    const previews = states['Make previews'];
    expect(previews.Type).toBe('Map');
    expect(previews.ItemsPath).toBe('$.prepared.allowed');
    const photo = previews.ItemProcessor.States['Make photo previews'];
    expect(entryOf(photo.Resource)).toBe('lambdas/tasks/order-previews.ts');
    expect(previews.ItemProcessor.States[photo.Catch[0].Next].Type).toBe('Pass');
    // Every top-level step is caught by the handler that refunds what was not delivered.
    for (const name of ['Prepare order', 'Generate images', 'Finalize order', 'Send order e-mail']) {
      expect(states[name].Catch).toEqual([
        expect.objectContaining({ ErrorEquals: ['States.ALL'], Next: 'Order failed' }),
      ]);
    }
    expect(entryOf(states['Order failed'].Resource)).toBe('lambdas/tasks/order-failed.ts');
    for (const s of Object.values(states).filter((x: Json) => x.Type === 'Task')) {
      expect(resources[s.Resource.split(':function:')[1]].Metadata[ENTRY_METADATA_KEY]).toMatch(/^lambdas\/tasks\//);
    }
  });

  test('routes may start it; task functions know the site but not the machines', () => {
    for (const fn of model.functions.values()) {
      expect(fn.environment.SITE_URL).toBe('https://d111.cloudfront.net');
      expect(fn.environment.MAIL_FROM).toBeTruthy();
      // Routes and scheduled functions (the reconciler) start and inspect executions; tasks run inside them.
      if (fn.entry.startsWith('lambdas/routes/') || fn.entry.startsWith('lambdas/schedules/'))
        expect(fn.environment.ORDER_MACHINE_ARN).toBe(machine.arn);
      else expect(fn.environment.ORDER_MACHINE_ARN).toBeUndefined();
    }
    const webhookRole = JSON.stringify(
      Object.entries(resources).filter(([id]) => id.startsWith('ApiPostStripeWebhook')),
    );
    expect(webhookRole).toContain('states:StartExecution');
    const custom = readModel(synth({ siteUrl: 'https://toonzap.example' }).toJSON() as CfnTemplate);
    for (const fn of custom.functions.values()) expect(fn.environment.SITE_URL).toBe('https://toonzap.example');
  });

  test("payment mode 'stripe' grants the Stripe secret to checkout, webhook and refunding tasks only", () => {
    const readers = Object.entries(resources)
      .filter(
        ([, r]) =>
          r.Type === 'AWS::IAM::Policy' &&
          (r.Properties.PolicyDocument.Statement as Json[]).some(
            (s) =>
              [s.Action].flat().includes('secretsmanager:GetSecretValue') &&
              JSON.stringify(s.Resource).includes(':secret:toonzap/stripe'),
          ),
      )
      .map(([id]) => id.replace(/ServiceRoleDefaultPolicy.*$/, ''))
      .sort();
    expect(readers).toEqual([
      'ApiPostCheckout',
      'ApiPostStripeWebhook',
      'OrderPipelineOrderFailedTask',
      'OrderPipelineOrderFinalizeTask',
      'SchedulesReconcileFunction',
    ]);
    const prelaunch = synth({ paymentMode: 'prelaunch' }).toJSON().Resources as Record<string, Json>;
    expect(JSON.stringify(prelaunch)).not.toContain(':secret:toonzap/stripe');
  });

  test('waiting for capacity, throttling and a misconfigured model are waited out until the deadline', () => {
    const generate = states['Generate images'].ItemProcessor.States['Generate image'];
    const retries = generate.Retry as Json[];
    const wait = retries.find((r) => r.ErrorEquals.includes('CapacityBusy'));
    expect(wait).toEqual({
      ErrorEquals: ['CapacityBusy', 'EngineThrottled', 'GenerativeThrottled', 'GenerativeMisconfigured'],
      IntervalSeconds: 5,
      BackoffRate: 2,
      MaxDelaySeconds: 30,
      JitterStrategy: 'FULL',
      MaxAttempts: expect.any(Number),
    });
    // Full jitter waits half the cap on average: even at a quarter of the cap each, the attempts outlast the deadline.
    const deadlineSeconds = ENVIRONMENTS.prod.orderDeadlineMinutes * 60;
    expect(wait.MaxAttempts * (wait.MaxDelaySeconds / 4)).toBeGreaterThanOrEqual(deadlineSeconds);
    // No quicker retrier before it takes these errors (Step Functions uses the first that matches).
    const before = retries.slice(0, retries.indexOf(wait));
    for (const r of before) for (const e of wait.ErrorEquals) expect(r.ErrorEquals).not.toContain(e);
    // The execution outlives the deadline, so the pipeline itself refunds what waited too long.
    expect(machine.definition.TimeoutSeconds).toBeGreaterThan(deadlineSeconds);
    // The deadline follows the configuration.
    const longer = readModel(synth({ orderDeadlineMinutes: 240 }).toJSON() as CfnTemplate, (_id, attr) =>
      attr === 'DomainName' ? 'd111.cloudfront.net' : undefined,
    ).stateMachines.find((m) => m.logicalId.startsWith('OrderPipelineOrderMachine'))!;
    expect(longer.definition.TimeoutSeconds).toBeGreaterThan(240 * 60);
    expect(longer.definition.TimeoutSeconds).toBeLessThan(300 * 60);
  });

  test('every Lambda task of both machines retries the Lambda service errors, throttling first, then a timeout', () => {
    const jobs = model.stateMachines.find((m) => m.logicalId.startsWith('PipelinesJobsMachine'))!;
    const tasks: Json[] = [];
    const visit = (st: Record<string, Json>) => {
      for (const s of Object.values(st)) {
        if (s.Type === 'Task') tasks.push(s);
        if (s.Type === 'Map') visit(s.ItemProcessor.States);
      }
    };
    visit(states);
    visit(jobs.definition.States);
    expect(tasks.length).toBeGreaterThanOrEqual(10);
    for (const t of tasks) {
      expect(t.Retry[0]).toEqual(
        expect.objectContaining({
          ErrorEquals: [
            'Lambda.TooManyRequestsException',
            'Lambda.ServiceException',
            'Lambda.AWSLambdaException',
            'Lambda.SdkClientException',
          ],
          JitterStrategy: 'FULL',
        }),
      );
      // A run past its time (the function's or the state's) is run again before any Catch gives it up.
      expect(t.Retry[1]).toEqual(
        expect.objectContaining({ ErrorEquals: ['Sandbox.Timedout', 'States.Timeout'], MaxAttempts: 2 }),
      );
    }
  });

  test("the jobs machine's previews wait out no capacity and a throttled engine with jitter, then fail", () => {
    const jobs = model.stateMachines.find((m) => m.logicalId.startsWith('PipelinesJobsMachine'))!;
    const previews = Object.values(jobs.definition.States as Record<string, Json>).find(
      (s) => s.Type === 'Task' && entryOf(s.Resource) === 'lambdas/tasks/make-previews.ts',
    )!;
    const wait = previews.Retry.find((r: Json) => r.ErrorEquals.includes('CapacityBusy'));
    expect(wait).toEqual(
      expect.objectContaining({ ErrorEquals: ['CapacityBusy', 'EngineThrottled'], JitterStrategy: 'FULL' }),
    );
    // Bounded: past its retries the Catch records the job's failure.
    expect(wait.MaxAttempts).toBeGreaterThan(0);
    expect(previews.Catch.map((c: Json) => c.ErrorEquals)).toEqual([['States.ALL']]);
  });

  test('the deadline and the admission limits are configuration, and every function is told them', () => {
    const ctx: Record<string, string> = { env: 'prod', orderDeadlineMinutes: '240', bedrockRequestsPerMinute: '20' };
    const cfg = resolveConfig((k) => ctx[k]);
    expect([cfg.orderDeadlineMinutes, cfg.bedrockRequestsPerMinute]).toEqual([240, 20]);
    expect(ENVIRONMENTS.prod.orderDeadlineMinutes).toBe(120);
    const bad = (ctx: Record<string, string>) => () => resolveConfig((k) => ({ env: 'prod', ...ctx })[k]);
    expect(bad({ orderDeadlineMinutes: '5' })).toThrow(/orderDeadlineMinutes/);
    expect(bad({ orderDeadlineMinutes: '1.5' })).toThrow(/orderDeadlineMinutes/);
    expect(bad({ bedrockRequestsPerMinute: '0' })).toThrow(/bedrockRequestsPerMinute/);
    for (const fn of model.functions.values()) {
      expect(fn.environment).toMatchObject({
        BEDROCK_REQUESTS_PER_MINUTE: String(ENVIRONMENTS.prod.bedrockRequestsPerMinute),
        ENGINE_MAX_CONCURRENCY: String(ENVIRONMENTS.prod.engineMaxConcurrency),
        ORDER_DEADLINE_MINUTES: '120',
      });
    }
  });
});
