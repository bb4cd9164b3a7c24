import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ROUTES, routeId } from '../../domain/api-routes';
import { MEDIA_PREFIX } from '../../domain/wiring';
import { buildToonZap } from '../../lib/app';
import { ENVIRONMENTS, type EnvConfig } from '../../lib/config';

// As `cdk synth` runs: CDK's own CloudFormation validation on (test/support/quiet-env.cjs turns it off elsewhere).
process.env.CDK_VALIDATION = 'true';

/** Synthesizes the whole app (edge + main stack) with cdk-nag's AwsSolutions checks; returns the unacknowledged findings. */
function nag(
  config: EnvConfig,
  env: { account?: string; region: string } = { account: '123456789012', region: 'eu-west-1' },
): { findings: string[] } {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'nag-'));
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] }, outdir });
  buildToonZap(app, config, env);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  try {
    app.synth();
    return { findings: [] };
  } catch (err) {
    const report = path.join(outdir, 'validation-report.json');
    if (!fs.existsSync(report)) throw err;
    const json = JSON.parse(fs.readFileSync(report, 'utf8')) as {
      pluginReports: { violations: { ruleName: string; violatingConstructs: { constructPath: string }[] }[] }[];
    };
    const findings = json.pluginReports.flatMap((p) =>
      p.violations.flatMap((v) => v.violatingConstructs.map((c) => `${v.ruleName} at ${c.constructPath}`)),
    );
    return { findings };
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

describe('cdk-nag AwsSolutions', () => {
  test.each([
    ['dev', ENVIRONMENTS.dev],
    ['prod', ENVIRONMENTS.prod],
    [
      'prod with a prebuilt engine image and a custom domain',
      {
        ...ENVIRONMENTS.prod,
        engineImageUri: '123456789012.dkr.ecr.eu-west-1.amazonaws.com/toonzap-engine:1',
        siteDomain: 'toonzap.example',
        siteCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc',
        siteUrl: 'https://toonzap.example',
      },
    ],
  ] as [string, EnvConfig][])('%s: no unacknowledged finding', (_name, config) => {
    expect(nag(config).findings).toEqual([]);
  });

  test('prod as `cdk synth` sees it without credentials (account unresolved): synthesizes, nothing unacknowledged', () => {
    expect(nag(ENVIRONMENTS.prod, { region: 'us-east-1' }).findings).toEqual([]);
  });

  test('an acknowledgement is needed: a new wildcard grant is reported (the check can fail)', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'nag-'));
    const app2 = new App({ context: { 'aws:cdk:bundling-stacks': [] }, outdir });
    const built = buildToonZap(app2, ENVIRONMENTS.dev, { account: '123456789012', region: 'eu-west-1' });
    built.main.storage.media.grantReadWrite(built.main.api.functions.GetStatus);
    Validations.of(app2).addPlugins(new AwsSolutionsChecks(app2));
    expect(() => app2.synth()).toThrow(
      /AwsSolutions-IAM5\[Action::s3:DeleteObject\*\][\s\S]*GetStatus|GetStatus[\s\S]*AwsSolutions-IAM5\[Action::s3:DeleteObject\*\]/,
    );
    fs.rmSync(outdir, { recursive: true, force: true });
  });
});

describe('least privilege', () => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const { main } = buildToonZap(
    app,
    { ...ENVIRONMENTS.prod, engineImageUri: '123456789012.dkr.ecr.eu-west-1.amazonaws.com/toonzap-engine:1' },
    { account: '123456789012', region: 'eu-west-1' },
  );
  const template = Template.fromStack(main);
  const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: any }>;
  const mediaId = main.getLogicalId(main.storage.media.node.defaultChild as never);

  /** Every IAM statement of a role's inline policies, with resources rendered to strings. */
  function statementsOf(roleLogicalId: string) {
    return Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((x: any) => x.Ref === roleLogicalId))
      .flatMap((p) => p.Properties.PolicyDocument.Statement as any[])
      .map((s) => ({
        actions: [s.Action].flat() as string[],
        resources: [s.Resource].flat().map((x) => JSON.stringify(x)),
        // ListBucket is granted on the bucket, under one prefix (lib/storage.ts grantMedia)
        listPrefix: [s.Condition?.StringLike?.['s3:prefix']].flat()[0] as string | undefined,
      }));
  }
  const roleOfRoute = (handler: string) => {
    const route = ROUTES.find((r) => r.handler === handler)!;
    return main.getLogicalId(main.api.functions[routeId(route)].role!.node.defaultChild as never);
  };
  const mediaGrants = (roleId: string) =>
    statementsOf(roleId)
      .filter((s) => s.resources.some((r) => r.includes(mediaId)))
      .flatMap((s) =>
        s.actions.flatMap((a) =>
          s.resources.map(
            (r) => `${a} ${/\/([a-z]+\/)\*"/.exec(r)?.[1] ?? s.listPrefix?.replace(/\*$/, '') ?? 'bucket'}`,
          ),
        ),
      )
      .sort();

  test('the upload route reads, writes and deletes under uploads/ only', () => {
    expect(mediaGrants(roleOfRoute('upload-image'))).toEqual([
      's3:DeleteObject uploads/',
      's3:GetObject uploads/',
      's3:ListBucket uploads/',
      's3:PutObject uploads/',
    ]);
  });

  test('the engine reads uploads/ and outputs/ (the gate checks model images), writes previews/ and outputs/, keeps its analysis cache, and pulls only its repository', () => {
    const engineRole = main.getLogicalId(main.engine.role.node.defaultChild as never);
    expect(mediaGrants(engineRole)).toEqual([
      's3:GetObject analysis/',
      's3:GetObject outputs/',
      's3:GetObject uploads/',
      's3:ListBucket analysis/',
      's3:ListBucket outputs/',
      's3:ListBucket uploads/',
      's3:PutObject analysis/',
      's3:PutObject outputs/',
      's3:PutObject previews/',
    ]);
    const ecr = statementsOf(engineRole).filter((s) => s.actions.some((a) => a.startsWith('ecr:')));
    const pull = ecr.find((s) => s.actions.includes('ecr:BatchGetImage'))!;
    expect(pull.resources).toEqual([JSON.stringify('arn:aws:ecr:eu-west-1:123456789012:repository/toonzap-engine')]);
    expect(ecr.find((s) => s.resources.includes('"*"'))!.actions).toEqual(['ecr:GetAuthorizationToken']);
  });

  test('GET /api/jobs/{id} can describe executions but start none', () => {
    const actions = statementsOf(roleOfRoute('get-job'))
      .flatMap((s) => s.actions)
      .filter((a) => a.startsWith('states:'));
    expect(actions).toEqual(['states:DescribeExecution']);
  });

  test('SES sending is limited to the configured sender identity', () => {
    const ses = Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .flatMap((p) => p.Properties.PolicyDocument.Statement as any[])
      .filter((s) => [s.Action].flat().includes('ses:SendEmail'));
    expect(ses.length).toBeGreaterThan(0);
    for (const s of ses) {
      const text = JSON.stringify(s.Resource);
      expect(text).toContain('identity/no-reply@toonzap.example');
      expect(text).toContain('identity/toonzap.example');
      expect(text).not.toContain('*');
    }
  });

  test('no function is granted any action on the whole media bucket', () => {
    for (const [id, r] of Object.entries(resources)) {
      if (r.Type !== 'AWS::IAM::Policy' || id.includes('CDKBucketDeployment')) continue;
      for (const s of r.Properties.PolicyDocument.Statement as any[]) {
        for (const res of [s.Resource].flat()) {
          const text = JSON.stringify(res);
          if (text.includes(mediaId) && text.includes('/*'))
            expect(Object.values(MEDIA_PREFIX).some((p) => text.includes(`"/${p}*"`))).toBe(true);
        }
      }
    }
  });
});
