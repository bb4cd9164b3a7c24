import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ENTRY_METADATA_KEY } from '../../domain/wiring';
import { ENVIRONMENTS, type EnvConfig } from '../../lib/config';
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
          ErrorEquals: ['EngineThrottled', 'EngineModelError', 'EngineUnavailable'],
          BackoffRate: 2,
          MaxAttempts: 2,
        }),
      ]),
    );
    expect(entryOf(map.ItemProcessor.States[generate.Catch[0].Next].Resource)).toBe('lambdas/tasks/item-failed.ts');
    // Every top-level step is caught by the handler that refunds what was not delivered.
    for (const name of ['Prepare order', 'Make previews', 'Generate images', 'Finalize order', 'Send order e-mail']) {
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
          JSON.stringify(r.Properties.PolicyDocument).includes('secretsmanager:GetSecretValue'),
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
    expect(JSON.stringify(prelaunch)).not.toContain('secretsmanager:GetSecretValue');
  });

  test('a misconfigured generative model makes the item wait (long retries), never fail at once', () => {
    const generate = states['Generate images'].ItemProcessor.States['Generate image'];
    const misconfigured = (generate.Retry as Json[]).filter((r) => r.ErrorEquals.includes('GenerativeMisconfigured'));
    expect(misconfigured).toEqual([
      {
        ErrorEquals: ['GenerativeMisconfigured'],
        IntervalSeconds: 30,
        BackoffRate: 2,
        MaxDelaySeconds: 300,
        JitterStrategy: 'FULL',
        MaxAttempts: 20,
      },
    ]);
    // Its retries end inside the execution's timeout (2 h), so the item is refunded by the pipeline, not stranded.
    let total = 0;
    for (let i = 0; i < 20; i++) total += Math.min(30 * 2 ** i, 300);
    expect(total).toBeLessThan(resources[machine.logicalId].Properties.TimeoutSeconds ?? 7200);
    // The quick retries do not include it (they would give up in seconds and refund).
    for (const r of generate.Retry as Json[])
      if (r.ErrorEquals.includes('GenerativeThrottled')) expect(r.ErrorEquals).not.toContain('GenerativeMisconfigured');
  });
});
