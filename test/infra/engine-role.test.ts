import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ENVIRONMENTS } from '../../lib/config';
import { ToonZapStack } from '../../lib/toonzap-stack';

type Json = any;

/** The engine's S3 rights: its own prefixes only, and read + write on the analysis cache. */
describe('engine execution role', () => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new ToonZapStack(app, 'Test', {
    config: { ...ENVIRONMENTS.prod, engineImageUri: '123456789012.dkr.ecr.eu-west-1.amazonaws.com/engine:1' },
    env: { account: '123456789012', region: 'eu-west-1' },
  });
  const resources = Template.fromStack(stack).toJSON().Resources as Record<string, Json>;
  const roleId = Object.keys(resources).find(
    (k) => resources[k].Type === 'AWS::IAM::Role' && /^EngineExecutionRole/.test(k),
  )!;
  const statements: Json[] = Object.values(resources)
    .filter((r: Json) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((x: Json) => x.Ref === roleId))
    .flatMap((r: Json) => r.Properties.PolicyDocument.Statement);
  /** The object-key pattern of each S3 statement's resources, e.g. "uploads/*". */
  const keys = (st: Json) =>
    [st.Resource]
      .flat()
      .map((r: Json) => JSON.stringify(r).match(/"\/([^"]*)"\]\]\}$/)?.[1])
      .filter(Boolean);
  const s3 = statements.filter((st) => [st.Action].flat().some((a: string) => a.startsWith('s3:')));

  test('reads uploads, writes previews, reads and writes outputs and analysis/ — nothing else in the bucket', () => {
    expect(roleId).toBeDefined();
    const can = (action: string, key: string) =>
      s3.some(
        (st) =>
          [st.Action]
            .flat()
            .some((a: string) => a === action || (a.endsWith('*') && action.startsWith(a.slice(0, -1)))) &&
          keys(st).includes(key),
      );
    expect(can('s3:GetObject', 'uploads/*')).toBe(true);
    expect(can('s3:PutObject', 'previews/*')).toBe(true);
    expect(can('s3:PutObject', 'outputs/*')).toBe(true);
    // the quality gate's check of a paid generative image stored there
    expect(can('s3:GetObject', 'outputs/*')).toBe(true);
    expect(can('s3:GetObject', 'previews/*')).toBe(false);
    expect(can('s3:GetObject', 'analysis/*')).toBe(true);
    expect(can('s3:PutObject', 'analysis/*')).toBe(true);
    expect(can('s3:PutObject', 'uploads/*')).toBe(false);
    for (const st of s3)
      for (const k of keys(st)) expect(['uploads/*', 'previews/*', 'outputs/*', 'analysis/*']).toContain(k);
  });
});
