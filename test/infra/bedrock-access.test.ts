import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { CONTROL_STRUCTURE_MODEL_ID, FAST_UPSCALE_MODEL_ID, GENERATIVE_PRESETS } from '../../domain/generative';
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

/** bedrock:* (or other `service:`) statements of the role of the function built from `entry`. */
function bedrockStatements(t: Json, entry: string, service = 'bedrock:'): { actions: string[]; resources: string[] }[] {
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
      if (!actions.some((a: string) => a.startsWith(service))) continue;
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
    // The inference profile of us-west-2's geography and its foundation model in the regions it routes to.
    expect(statements).toEqual([
      {
        actions: ['bedrock:InvokeModel'],
        resources: [
          `arn:aws:bedrock:us-east-1::foundation-model/${CONTROL_STRUCTURE_MODEL_ID}`,
          `arn:aws:bedrock:us-east-2::foundation-model/${CONTROL_STRUCTURE_MODEL_ID}`,
          `arn:aws:bedrock:us-west-2:123456789012:inference-profile/us.${CONTROL_STRUCTURE_MODEL_ID}`,
          `arn:aws:bedrock:us-west-2::foundation-model/${CONTROL_STRUCTURE_MODEL_ID}`,
        ],
      },
    ]);
    // The model ids the handlers call are inference profiles.
    for (const r of Object.values(t.Resources as Record<string, Json>)) {
      const styles = r.Type === 'AWS::Lambda::Function' && r.Properties.Environment?.Variables?.GENERATIVE_STYLES;
      if (!styles) continue;
      for (const s of Object.values(JSON.parse(styles) as Record<string, { modelId: string }>))
        expect(s.modelId).toBe(`us.${CONTROL_STRUCTURE_MODEL_ID}`);
    }
    // No Marketplace action on any role: the operator subscribes once (preflight checks it), no function may.
    expect(bedrockStatements(t, 'lambdas/tasks/generate-item.ts', 'aws-marketplace:')).toEqual([]);
    expect(JSON.stringify(t)).not.toContain('aws-marketplace:');
    expect(bedrockStatements(t, 'lambdas/routes/checkout.ts', 'aws-marketplace:')).toEqual([]);
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

  const config = (ctx: Record<string, string>) => resolveConfig((k) => ({ env: 'dev', ...ctx })[k]);
  const grantOf = (ctx: Record<string, string>) =>
    bedrockStatements(synth(config(ctx)), 'lambdas/tasks/generate-item.ts')[0].resources.sort();

  test("the profile follows the Bedrock region's geography; its foundation model only in the profile's regions", () => {
    const eu = config({ bedrockRegion: 'eu-central-1', bedrockProfileRegions: 'eu-central-1,eu-west-1' });
    expect(eu.generativeStyles['3d']?.modelId).toBe(`eu.${CONTROL_STRUCTURE_MODEL_ID}`);
    expect(grantOf({ bedrockRegion: 'eu-central-1', bedrockProfileRegions: 'eu-central-1,eu-west-1' })).toEqual([
      `arn:aws:bedrock:eu-central-1:123456789012:inference-profile/eu.${CONTROL_STRUCTURE_MODEL_ID}`,
      `arn:aws:bedrock:eu-central-1::foundation-model/${CONTROL_STRUCTURE_MODEL_ID}`,
      `arn:aws:bedrock:eu-west-1::foundation-model/${CONTROL_STRUCTURE_MODEL_ID}`,
    ]);
    expect(config({ bedrockRegion: 'ap-northeast-1' }).generativeStyles.anime?.modelId).toBe(
      `apac.${CONTROL_STRUCTURE_MODEL_ID}`,
    );
    // An eu profile with the default (us) profile regions would be granted nowhere it runs: refused at synth.
    expect(() => grantOf({ bedrockRegion: 'eu-central-1' })).toThrow(/bedrockProfileRegions/);
    expect(() => config({ bedrockRegion: 'sa-east-1' })).toThrow(/geography/);
  });

  test('an application inference profile ARN, or a plain foundation model id, as the operator names it', () => {
    const arn = 'arn:aws:bedrock:us-west-2:123456789012:application-inference-profile/abc123def456';
    expect(
      grantOf({ generativeSettings: JSON.stringify({ '3d': { modelId: arn }, anime: { modelId: arn } }) }),
    ).toEqual(
      [
        arn,
        `arn:aws:bedrock:us-east-1::foundation-model/${CONTROL_STRUCTURE_MODEL_ID}`,
        `arn:aws:bedrock:us-east-2::foundation-model/${CONTROL_STRUCTURE_MODEL_ID}`,
        `arn:aws:bedrock:us-west-2:123456789012:inference-profile/us.${CONTROL_STRUCTURE_MODEL_ID}`,
        `arn:aws:bedrock:us-west-2::foundation-model/${CONTROL_STRUCTURE_MODEL_ID}`,
      ].sort(),
    );
    const plain = 'stability.sd3-5-large-v1:0';
    expect(
      grantOf({ generativeStyles: '3d', generativeSettings: JSON.stringify({ '3d': { modelId: plain } }) }),
    ).toEqual([`arn:aws:bedrock:us-west-2::foundation-model/${plain}`]);
    for (const bad of ['arn:aws:bedrock:us-west-2:123:application-inference-profile/x', 'us.', 'no spaces allowed'])
      expect(() => config({ generativeSettings: JSON.stringify({ '3d': { modelId: bad } }) })).toThrow(/modelId/);
  });

  test('the upscale service: its profile and foundation-model ARNs are granted only when set, and reach the handler', () => {
    const styleArns = grantOf({});
    expect(styleArns.some((a) => a.includes('upscale'))).toBe(false);
    const id = `us.${FAST_UPSCALE_MODEL_ID}`;
    const t = synth(config({ bedrockUpscaleModelId: id }));
    const granted = bedrockStatements(t, 'lambdas/tasks/generate-item.ts')[0].resources.sort();
    expect(granted).toEqual(
      [
        ...styleArns,
        `arn:aws:bedrock:us-east-1::foundation-model/${FAST_UPSCALE_MODEL_ID}`,
        `arn:aws:bedrock:us-east-2::foundation-model/${FAST_UPSCALE_MODEL_ID}`,
        `arn:aws:bedrock:us-west-2:123456789012:inference-profile/${id}`,
        `arn:aws:bedrock:us-west-2::foundation-model/${FAST_UPSCALE_MODEL_ID}`,
      ].sort(),
    );
    const fn = Object.values(t.Resources as Record<string, Json>).find(
      (r) => r.Metadata?.[ENTRY_METADATA_KEY] === 'lambdas/tasks/generate-item.ts',
    );
    expect(fn.Properties.Environment.Variables.BEDROCK_UPSCALE_MODEL_ID).toBe(id);
    // Only the upscale services' ids are accepted.
    expect(() => config({ bedrockUpscaleModelId: `us.${CONTROL_STRUCTURE_MODEL_ID}` })).toThrow(
      /bedrockUpscaleModelId/,
    );
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
