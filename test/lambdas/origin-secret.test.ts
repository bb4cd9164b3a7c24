/**
 * The CloudFront → API origin secret: read from Secrets Manager (lambdas/lib/http.ts), both the current and the
 * previous value accepted, and rotated by lambdas/rotation/origin-secret.ts without refusing live traffic.
 */
import type { CloudFrontClient, DistributionConfig } from '@aws-sdk/client-cloudfront';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { type AwsClientStub, mockClient } from 'aws-sdk-client-mock';
import { ORIGIN_VERIFY_HEADER } from '../../domain/security-headers';
import { ENV } from '../../domain/wiring';
import { httpEvent } from '../support/http-event';

const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:OriginSecret-abc';
const saved = { ...process.env };
// The modules under test are loaded fresh for each test (their caches are per module, as per Lambda instance), so
// the SDK classes they use are fresh too: mocked, and the commands taken, from that same module registry.
let sm: AwsClientStub<SecretsManagerClient>;
let cf: AwsClientStub<CloudFrontClient>;
let SM: typeof import('@aws-sdk/client-secrets-manager');
let CF: typeof import('@aws-sdk/client-cloudfront');
function load<T>(path: string): T {
  let mod!: T;
  jest.isolateModules(() => {
    SM = require('@aws-sdk/client-secrets-manager');
    CF = require('@aws-sdk/client-cloudfront');
    sm = mockClient(SM.SecretsManagerClient);
    cf = mockClient(CF.CloudFrontClient);
    mod = require(path);
  });
  return mod;
}

beforeEach(() => {
  process.env = { ...saved, AWS_REGION: 'eu-west-1', [ENV.originSecretArn]: ARN, [ENV.distributionId]: 'E123' };
  delete process.env[ENV.originVerifySecret];
});
afterAll(() => {
  process.env = saved;
});

/** A fresh copy of the HTTP wrapper (its cache is per module, as per Lambda instance). */
function freshHandler() {
  const mod = load<typeof import('../../lambdas/lib/http')>('../../lambdas/lib/http');
  return mod.httpHandler(async () => mod.json(200, { ok: true }));
}
const call = (handler: ReturnType<typeof freshHandler>, secret?: string) =>
  handler(
    httpEvent('GET /api/status', { headers: secret === undefined ? {} : { [ORIGIN_VERIFY_HEADER]: secret } }),
  ).then((r) => r.statusCode);

const stages = (values: { current: string; previous?: string }) => {
  sm.on(SM.GetSecretValueCommand, { SecretId: ARN, VersionStage: 'AWSCURRENT' }).resolves({
    SecretString: values.current,
  });
  if (values.previous === undefined)
    sm.on(SM.GetSecretValueCommand, { SecretId: ARN, VersionStage: 'AWSPREVIOUS' }).rejects(
      new SM.ResourceNotFoundException({
        message: "Secrets Manager can't find the specified secret value",
        $metadata: {},
      }),
    );
  else
    sm.on(SM.GetSecretValueCommand, { SecretId: ARN, VersionStage: 'AWSPREVIOUS' }).resolves({
      SecretString: values.previous,
    });
};
const reads = (stage: string) =>
  sm.commandCalls(SM.GetSecretValueCommand).filter((c) => c.args[0].input.VersionStage === stage).length;

describe('the API accepts the origin secret from Secrets Manager', () => {
  test('the current and the previous value pass (a rotation settling); anything else, or nothing, is refused', async () => {
    const handler = freshHandler();
    stages({ current: 'new-value', previous: 'old-value' });
    expect(await call(handler, 'new-value')).toBe(200);
    expect(await call(handler, 'old-value')).toBe(200);
    expect(await call(handler, 'guess')).toBe(403);
    expect(await call(handler)).toBe(403);
    // Cached: one read of each stage, then one forced re-read for the wrong guess, none for the missing header.
    expect(reads('AWSCURRENT')).toBe(2);
    expect(reads('AWSPREVIOUS')).toBe(2);
  });

  test('a secret never rotated has no previous value: not asked for again on every request', async () => {
    const handler = freshHandler();
    stages({ current: 'only-value' });
    for (let i = 0; i < 5; i++) expect(await call(handler, 'only-value')).toBe(200);
    expect(reads('AWSCURRENT')).toBe(1);
    expect(reads('AWSPREVIOUS')).toBe(1);
  });

  test('a value rotated since this instance read it passes at once; strangers cause one re-read per 30 s at most', async () => {
    const handler = freshHandler();
    stages({ current: 'before' });
    expect(await call(handler, 'before')).toBe(200);
    stages({ current: 'after', previous: 'before' });
    expect(await call(handler, 'after')).toBe(200);
    expect(await call(handler, 'before')).toBe(200);
    const n = reads('AWSCURRENT');
    for (let i = 0; i < 10; i++) expect(await call(handler, `stranger-${i}`)).toBe(403);
    expect(reads('AWSCURRENT')).toBe(n);
  });

  test('the local runtime gives the value itself, which wins: no Secrets Manager call', async () => {
    process.env[ENV.originVerifySecret] = 'local-value';
    const handler = freshHandler();
    expect(await call(handler, 'local-value')).toBe(200);
    expect(await call(handler, 'other')).toBe(403);
    expect(sm.commandCalls(SM.GetSecretValueCommand)).toHaveLength(0);
  });
});

describe('rotation (lambdas/rotation/origin-secret.ts)', () => {
  const TOKEN = 'token-2';
  const rotate = () => {
    const mod = load<typeof import('../../lambdas/rotation/origin-secret')>('../../lambdas/rotation/origin-secret');
    return (Step: 'createSecret' | 'setSecret' | 'testSecret' | 'finishSecret') =>
      mod.handler({ Step, SecretId: ARN, ClientRequestToken: TOKEN });
  };
  const config = (value: string): DistributionConfig =>
    ({
      CallerReference: 'x',
      Comment: '',
      Enabled: true,
      Origins: {
        Quantity: 2,
        Items: [
          { Id: 'site', DomainName: 'b.s3.amazonaws.com' },
          {
            Id: 'api',
            DomainName: 'api.execute-api.eu-west-1.amazonaws.com',
            CustomHeaders: { Quantity: 1, Items: [{ HeaderName: ORIGIN_VERIFY_HEADER, HeaderValue: value }] },
          },
        ],
      },
    }) as DistributionConfig;

  test('makes a pending value, promotes it (the old one becomes previous), then sets it as CloudFront’s header', async () => {
    const step = rotate();
    // Before createSecret the new version has no stage; after it, AWSPENDING.
    sm.on(SM.DescribeSecretCommand)
      .resolvesOnce({ VersionIdsToStages: { 'token-1': ['AWSCURRENT'], [TOKEN]: [] } })
      .resolves({ VersionIdsToStages: { 'token-1': ['AWSCURRENT'], [TOKEN]: ['AWSPENDING'] } });
    sm.on(SM.PutSecretValueCommand).resolves({});
    await step('createSecret');
    const put = sm.commandCalls(SM.PutSecretValueCommand)[0].args[0].input;
    expect(put).toMatchObject({ SecretId: ARN, ClientRequestToken: TOKEN, VersionStages: ['AWSPENDING'] });
    expect(put.SecretString).toMatch(/^[0-9a-f]{48}$/);

    // Nothing reaches CloudFront before the value is current (so the API already accepts it).
    await step('setSecret');
    await step('testSecret');
    expect(cf.calls()).toHaveLength(0);

    sm.on(SM.UpdateSecretVersionStageCommand).resolves({});
    sm.on(SM.GetSecretValueCommand, { SecretId: ARN, VersionId: TOKEN }).resolves({ SecretString: put.SecretString });
    cf.on(CF.GetDistributionConfigCommand).resolves({ DistributionConfig: config('old-value'), ETag: 'etag-1' });
    cf.on(CF.UpdateDistributionCommand).resolves({});
    await step('finishSecret');
    expect(sm.commandCalls(SM.UpdateSecretVersionStageCommand)[0].args[0].input).toEqual({
      SecretId: ARN,
      VersionStage: 'AWSCURRENT',
      MoveToVersionId: TOKEN,
      RemoveFromVersionId: 'token-1',
    });
    const update = cf.commandCalls(CF.UpdateDistributionCommand)[0].args[0].input;
    expect(update).toMatchObject({ Id: 'E123', IfMatch: 'etag-1' });
    expect(update.DistributionConfig?.Origins?.Items?.[1].CustomHeaders?.Items?.[0].HeaderValue).toBe(put.SecretString);
  });

  test('finishSecret again (a retry after a failed update) promotes nothing twice and leaves a matching header alone', async () => {
    const step = rotate();
    sm.on(SM.DescribeSecretCommand).resolves({
      VersionIdsToStages: { 'token-1': ['AWSPREVIOUS'], [TOKEN]: ['AWSCURRENT'] },
    });
    sm.on(SM.GetSecretValueCommand, { SecretId: ARN, VersionId: TOKEN }).resolves({ SecretString: 'current-value' });
    cf.on(CF.GetDistributionConfigCommand).resolves({ DistributionConfig: config('current-value'), ETag: 'etag-2' });
    await step('finishSecret');
    expect(sm.commandCalls(SM.UpdateSecretVersionStageCommand)).toHaveLength(0);
    expect(cf.commandCalls(CF.UpdateDistributionCommand)).toHaveLength(0);
  });

  test('a distribution without the header is an error, not a silent success', async () => {
    const step = rotate();
    sm.on(SM.DescribeSecretCommand).resolves({ VersionIdsToStages: { [TOKEN]: ['AWSCURRENT'] } });
    sm.on(SM.GetSecretValueCommand, { SecretId: ARN, VersionId: TOKEN }).resolves({ SecretString: 'v' });
    const bare = config('v');
    bare.Origins!.Items![1].CustomHeaders = { Quantity: 0, Items: [] };
    cf.on(CF.GetDistributionConfigCommand).resolves({ DistributionConfig: bare, ETag: 'e' });
    await expect(step('finishSecret')).rejects.toThrow(/No origin of E123 sends/);
  });
});
