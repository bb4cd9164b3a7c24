import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { CONTROL_STRUCTURE_MODEL_ID, GENERATIVE_PRESETS } from '../../domain/generative';
import { ENTRY_METADATA_KEY } from '../../domain/wiring';
import { ENVIRONMENTS, type EnvConfig, resolveConfig } from '../../lib/config';
import { ToonZapStack } from '../../lib/toonzap-stack';

type Json = any;

function synth(config: EnvConfig) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  return Template.fromStack(
    new ToonZapStack(app, 'Test', { config, env: { account: '123456789012', region: 'eu-west-1' } }),
  ).toJSON();
}

/** An ARN with the partition token resolved as in the commercial regions. */
function flat(x: Json): string {
  if (typeof x === 'string') return x;
  if (x?.Ref === 'AWS::Partition') return 'aws';
  if (x?.['Fn::Join']) return (x['Fn::Join'][1] as Json[]).map(flat).join(x['Fn::Join'][0]);
  return JSON.stringify(x);
}

/** bedrock:* statements of the role of the function built from `entry`, as [actions, resources] pairs. */
function bedrockStatements(t: Json, entry: string): { actions: string[]; resources: string[] }[] {
  const [fnId] =
    Object.entries(t.Resources as Record<string, Json>).find(([, r]) => r.Metadata?.[ENTRY_METADATA_KEY] === entry) ??
    [];
  if (!fnId) throw new Error(`no function for ${entry}`);
  const roleId = t.Resources[fnId].Properties.Role['Fn::GetAtt'][0];
  const out: { actions: string[]; resources: string[] }[] = [];
  for (const r of Object.values(t.Resources as Record<string, Json>)) {
    if (r.Type !== 'AWS::IAM::Policy' || !r.Properties.Roles.some((x: Json) => x.Ref === roleId)) continue;
    for (const s of r.Properties.PolicyDocument.Statement) {
      const actions = [s.Action].flat();
      if (!actions.some((a: string) => a.startsWith('bedrock:'))) continue;
      out.push({ actions, resources: [s.Resource].flat().map(flat) });
    }
  }
  return out;
}

describe('Bedrock access', () => {
  test('prod: the generate task may call bedrock:InvokeModel on exactly the configured model, nothing else', () => {
    const config = ENVIRONMENTS.prod;
    expect(Object.keys(config.generativeStyles).sort()).toEqual(expect.arrayContaining(['3d', 'anime']));
    const t = synth(config);
    const statements = bedrockStatements(t, 'lambdas/tasks/generate-item.ts');
    expect(statements).toEqual([
      {
        actions: ['bedrock:InvokeModel'],
        resources: [`arn:aws:bedrock:us-west-2::foundation-model/${CONTROL_STRUCTURE_MODEL_ID}`],
      },
    ]);
    // Functions that never render have no Bedrock access at all; no statement anywhere grants bedrock on "*".
    expect(bedrockStatements(t, 'lambdas/routes/checkout.ts')).toEqual([]);
    expect(bedrockStatements(t, 'lambdas/tasks/order-finalize.ts')).toEqual([]);
    const all = JSON.stringify(t);
    expect(all).not.toMatch(/"bedrock:\*"/);
    for (const r of Object.values(t.Resources as Record<string, Json>)) {
      if (r.Type !== 'AWS::IAM::Policy') continue;
      for (const s of r.Properties.PolicyDocument.Statement) {
        if ([s.Action].flat().some((a: string) => a.startsWith('bedrock:')))
          expect([s.Resource].flat()).not.toContain('*');
      }
    }
  });

  test('an inference profile and a second model: the profile ARN plus its foundation model in each profile region', () => {
    const config = resolveConfig(
      (k) =>
        (
          ({
            env: 'dev',
            generativeStyles: '3d,anime',
            generativeSettings: JSON.stringify({ anime: { modelId: `us.${CONTROL_STRUCTURE_MODEL_ID}` } }),
          }) as Record<string, string>
        )[k],
    );
    const [st] = bedrockStatements(synth(config), 'lambdas/tasks/generate-item.ts');
    expect(st.resources.sort()).toEqual([
      `arn:aws:bedrock:us-east-1::foundation-model/${CONTROL_STRUCTURE_MODEL_ID}`,
      `arn:aws:bedrock:us-east-2::foundation-model/${CONTROL_STRUCTURE_MODEL_ID}`,
      `arn:aws:bedrock:us-west-2:123456789012:inference-profile/us.${CONTROL_STRUCTURE_MODEL_ID}`,
      `arn:aws:bedrock:us-west-2::foundation-model/${CONTROL_STRUCTURE_MODEL_ID}`,
    ]);
  });

  test('no generative style: no Bedrock permission anywhere; settings reach the handlers', () => {
    const none = synth(
      resolveConfig((k) => (({ env: 'prod', generativeStyles: 'none' }) as Record<string, string>)[k]),
    );
    expect(JSON.stringify(none)).not.toContain('bedrock:InvokeModel');
    const t = synth(ENVIRONMENTS.dev);
    const fn = Object.values(t.Resources as Record<string, Json>).find(
      (r) => r.Metadata?.[ENTRY_METADATA_KEY] === 'lambdas/tasks/generate-item.ts',
    );
    expect(JSON.parse(fn.Properties.Environment.Variables.GENERATIVE_STYLES)).toEqual({
      '3d': GENERATIVE_PRESETS['3d'],
      anime: GENERATIVE_PRESETS.anime,
    });
  });

  test('configuration overrides are checked', () => {
    expect(() =>
      resolveConfig((k) => (({ env: 'dev', generativeStyles: 'cubism' }) as Record<string, string>)[k]),
    ).toThrow(/unknown style/);
    expect(() =>
      resolveConfig(
        (k) => (({ env: 'dev', generativeSettings: '{"3d":{"controlStrength":2}}' }) as Record<string, string>)[k],
      ),
    ).toThrow(/controlStrength/);
    expect(() =>
      resolveConfig(
        (k) => (({ env: 'dev', generativeSettings: '{"comic":{"prompt":"x"}}' }) as Record<string, string>)[k],
      ),
    ).toThrow(/not generative/);
    const c = resolveConfig(
      (k) =>
        (
          ({
            env: 'dev',
            generativeSettings: '{"3d":{"seed":"random","outputSize":1024}}',
            generativePreviewsPerDay: '5',
          }) as Record<string, string>
        )[k],
    );
    expect(c.generativeStyles['3d']).toMatchObject({ seed: 'random', outputSize: 1024 });
    expect(c.generativePreviewsPerDay).toBe(5);
  });
});
