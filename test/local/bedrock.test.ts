import {
  AccessDeniedException,
  BedrockRuntimeClient,
  InvokeModelCommand,
  ThrottlingException,
  ValidationException,
} from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import sharp from 'sharp';
import {
  CONTROL_STRUCTURE_MODEL_ID,
  FAST_UPSCALE_MODEL_ID,
  GENERATIVE_PRESETS,
  STYLE_PRESETS,
} from '../../domain/generative';
import { GENERATIVE_ERRORS, METRICS } from '../../domain/wiring';
import { controlStructureBody, GenerativeError, invokeControlStructure, readResult } from '../../lambdas/lib/bedrock';
import { metrics } from '../../lambdas/lib/observability';
import { upscaleBody } from '../../lambdas/lib/upscale';
import { accountGate } from '../../local/bedrock/gate';
import { type LocalBedrock, parseControlStructure, startLocalBedrock } from '../../local/bedrock/server';
import { bedrockRpmFromEnv } from '../../local/env-options';
import { photo } from '../fixtures/photos';

/** The Bedrock stand-in through the real SDK: the documented Control Structure body in, the documented answer out. */
/** A runtime client on the stand-in: one attempt, over HTTP/1.1, as the app calls Bedrock. */
const clientOf = (bedrock: LocalBedrock) =>
  new BedrockRuntimeClient({
    endpoint: bedrock.url,
    region: 'us-west-2',
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    maxAttempts: 1,
    requestHandler: new NodeHttpHandler(),
  });

describe('local Bedrock runtime', () => {
  let bedrock: LocalBedrock;
  let client: BedrockRuntimeClient;
  const styles = { '3d': GENERATIVE_PRESETS['3d'], anime: GENERATIVE_PRESETS.anime };

  beforeAll(async () => {
    bedrock = await startLocalBedrock({ styles });
    client = clientOf(bedrock);
  });
  afterAll(async () => {
    client?.destroy();
    await bedrock?.close();
  });

  const invoke = (body: unknown, modelId = styles['3d'].modelId) =>
    client.send(
      new InvokeModelCommand({
        modelId,
        contentType: 'application/json',
        accept: 'application/json',
        body: new TextEncoder().encode(JSON.stringify(body)),
      }),
    );
  const rawBody = (body: unknown) => Buffer.from(JSON.stringify(body));
  const small = async (w: number, h: number) =>
    sharp({ create: { width: w, height: h, channels: 3, background: '#88aacc' } })
      .png()
      .toBuffer();

  test('a documented request is drawn in the style of its prompt, in the documented response shape', async () => {
    const body = controlStructureBody(styles.anime, photo('astronaut.png'), 1234);
    const res = await invoke(body);
    const json = JSON.parse(new TextDecoder().decode(res.body));
    expect(Object.keys(json).sort()).toEqual(['finish_reasons', 'images', 'seeds']);
    expect(json.seeds).toEqual([1234]);
    expect(json.finish_reasons).toEqual([null]);
    const image = readResult(res.body);
    const meta = await sharp(image).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 512, height: 512 });
    // Drawn, not echoed: the result differs from the photo.
    expect(image.equals(photo('astronaut.png'))).toBe(false);
    // output_format is honoured.
    const jpeg = readResult((await invoke({ ...body, output_format: 'jpeg' })).body);
    expect((await sharp(jpeg).metadata()).format).toBe('jpeg');
  });

  test('requests outside the documented schema are refused with ValidationException', async () => {
    const good = controlStructureBody(styles['3d'], await small(128, 96), 7);
    const cases: [string, unknown][] = [
      ['no prompt', { ...good, prompt: undefined }],
      ['no image', { ...good, image: undefined }],
      ['extraneous key', { ...good, strength: 0.5 }],
      ['control_strength > 1', { ...good, control_strength: 1.5 }],
      ['negative seed', { ...good, seed: -1 }],
      ['seed too large', { ...good, seed: 4_294_967_295 }],
      ['bad output_format', { ...good, output_format: 'gif' }],
      ['unknown style_preset', { ...good, style_preset: 'watercolour' }],
      ['style_preset not a string', { ...good, style_preset: 3 }],
      ['prompt too long', { ...good, prompt: 'x'.repeat(10_001) }],
      ['not base64', { ...good, image: 'not base64!' }],
      ['not an image', { ...good, image: Buffer.from('hello world, not a picture').toString('base64') }],
      ['side < 64 px', { ...good, image: (await small(63, 128)).toString('base64') }],
      ['aspect ratio > 2.5:1', { ...good, image: (await small(512, 200)).toString('base64') }],
      ['too many pixels', { ...good, image: (await small(3100, 3100)).toString('base64') }],
    ];
    for (const [what, body] of cases) {
      const err = await invoke(body).then(
        () => null,
        (e: unknown) => e,
      );
      expect([what, err]).toEqual([what, expect.any(ValidationException)]);
    }
    // An enum miss in the schema validator's words, as Bedrock answers it; every documented preset passes.
    await expect(invoke({ ...good, style_preset: 'watercolour' })).rejects.toThrow(
      'Malformed input request: #/style_preset: watercolour is not a valid enum value',
    );
    expect(good.style_preset).toBe('3d-model');
    for (const style_preset of STYLE_PRESETS)
      await expect(parseControlStructure(rawBody({ ...good, style_preset }))).resolves.toBeDefined();
    // An unknown model id is refused too; the same body to the configured model passes.
    await expect(invoke(good, 'stability.unknown-v1:0')).rejects.toBeInstanceOf(ValidationException);
    await expect(invoke(good)).resolves.toBeDefined();
  });

  test('the upscale services: the documented body answered x4 by lanczos3; outside the body or limits refused', async () => {
    const fast = `us.${FAST_UPSCALE_MODEL_ID}`;
    const image = await small(300, 200);
    const res = await invoke(upscaleBody(FAST_UPSCALE_MODEL_ID, image, styles.anime), fast);
    const meta = await sharp(readResult(res.body)).metadata();
    expect([meta.width, meta.height]).toEqual([1200, 800]);
    expect(bedrock.upscaleCalls()[fast]).toBe(1);
    const conservative = 'stability.stable-conservative-upscale-v1:0';
    await invoke(upscaleBody(conservative, image, styles.anime), conservative);
    expect(bedrock.upscaleCalls()[conservative]).toBe(1);
    for (const [body, model] of [
      [{ image: image.toString('base64'), prompt: 'x' }, fast], // Fast Upscale takes no prompt
      [{ image: image.toString('base64') }, conservative], // Conservative needs one
      [{ image: (await small(1100, 1000)).toString('base64') }, fast], // over 1 MP
      [{ image: (await small(600, 200)).toString('base64') }, fast], // 3:1
    ] as const)
      await expect(invoke(body, model)).rejects.toBeInstanceOf(ValidationException);
    expect(bedrock.upscaleCalls()[fast]).toBe(1);
  });

  test('the handler side reads a filtered answer as a refusal and an inference error as retryable', () => {
    const enc = (o: unknown) => new TextEncoder().encode(JSON.stringify(o));
    expect(() => readResult(enc({ seeds: [1], finish_reasons: ['Filter reason: output image'], images: [] }))).toThrow(
      expect.objectContaining({ name: 'GenerativeRefused' }),
    );
    expect(() => readResult(enc({ seeds: [1], finish_reasons: ['Inference error'], images: [] }))).toThrow(
      expect.objectContaining({ name: 'GenerativeUnavailable' }),
    );
    expect(() =>
      readResult(enc({ seeds: [1], finish_reasons: [null], images: [Buffer.from('GIF89a....').toString('base64')] })),
    ).toThrow(GenerativeError);
    expect(() => readResult(enc({ seeds: [1], finish_reasons: [null], images: ['***'] }))).toThrow(/base64/);
    expect(() => readResult(new TextEncoder().encode('<html>'))).toThrow(/JSON/);
  });
});

/** What Bedrock checks before the model runs (local/bedrock/gate.ts), through the real SDK client. */
describe('local Bedrock runtime: the account', () => {
  let bedrock: LocalBedrock;
  let client: BedrockRuntimeClient;
  const styles = { '3d': GENERATIVE_PRESETS['3d'] };
  const profile = styles['3d'].modelId;

  let body: ReturnType<typeof controlStructureBody>;
  beforeAll(async () => {
    const png = await sharp({ create: { width: 128, height: 96, channels: 3, background: '#88aacc' } })
      .png()
      .toBuffer();
    body = controlStructureBody(styles['3d'], png, 7);
    bedrock = await startLocalBedrock({ styles, requestsPerMinute: 2, unsubscribedModels: [] });
    client = clientOf(bedrock);
  });
  afterAll(async () => {
    client?.destroy();
    await bedrock?.close();
  });
  afterEach(() => {
    bedrock.setRequestsPerMinute(undefined);
    bedrock.setUnsubscribed([]);
  });

  const invoke = (modelId = profile) =>
    client.send(
      new InvokeModelCommand({
        modelId,
        contentType: 'application/json',
        accept: 'application/json',
        body: new TextEncoder().encode(JSON.stringify(body)),
      }),
    );
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: Error & { $metadata?: { httpStatusCode?: number } }) => e,
    );

  test('the default model id is the inference profile; the plain id of the profile-only model is refused as AWS does', async () => {
    expect(profile).toBe(`us.${CONTROL_STRUCTURE_MODEL_ID}`);
    bedrock.setRequestsPerMinute(undefined);
    const err = await failure(invoke(CONTROL_STRUCTURE_MODEL_ID));
    expect(err).toBeInstanceOf(ValidationException);
    expect(err?.$metadata?.httpStatusCode).toBe(400);
    expect(err?.message).toBe(
      `Invocation of model ID ${CONTROL_STRUCTURE_MODEL_ID} with on-demand throughput isn't supported. Retry your request with the ID or ARN of an inference profile that contains this model.`,
    );
    await expect(invoke(profile)).resolves.toBeDefined();
  });

  test('the requests-per-minute quota answers 429 ThrottlingException, and lifting it lets calls through', async () => {
    bedrock.setRequestsPerMinute(2);
    await invoke();
    await invoke();
    const err = await failure(invoke());
    expect(err).toBeInstanceOf(ThrottlingException);
    expect(err?.name).toBe('ThrottlingException');
    expect(err?.$metadata?.httpStatusCode).toBe(429);
    expect(err?.message).toBe('Too many requests, please wait before trying again.');
    bedrock.setRequestsPerMinute(3);
    await expect(invoke()).resolves.toBeDefined();
  });

  test('a model the account is not subscribed to answers 403 AccessDeniedException with the Marketplace wording', async () => {
    bedrock.setUnsubscribed([CONTROL_STRUCTURE_MODEL_ID]);
    const err = await failure(invoke());
    expect(err).toBeInstanceOf(AccessDeniedException);
    expect(err?.$metadata?.httpStatusCode).toBe(403);
    expect(err?.message).toMatch(/aws-marketplace:ViewSubscriptions, aws-marketplace:Subscribe/);
    bedrock.setUnsubscribed([]);
    await expect(invoke()).resolves.toBeDefined();
  });

  test('a model the account has no access to answers 403 AccessDeniedException', async () => {
    bedrock.setAccessDenied([CONTROL_STRUCTURE_MODEL_ID]);
    const err = await failure(invoke());
    expect(err).toBeInstanceOf(AccessDeniedException);
    expect(err?.$metadata?.httpStatusCode).toBe(403);
    expect(err?.message).toBe("You don't have access to the model with the specified model ID.");
    bedrock.setAccessDenied([]);
    await expect(invoke()).resolves.toBeDefined();
  });

  test('the quota is a sliding 60 s window per model id', () => {
    const gate = accountGate({ requestsPerMinute: 2 });
    const t = 1_000_000;
    gate.admit(profile, t);
    gate.admit(profile, t + 30_000);
    expect(() => gate.admit(profile, t + 59_999)).toThrow(expect.objectContaining({ type: 'ThrottlingException' }));
    // Another model has its own quota.
    expect(() => gate.admit(`eu.${CONTROL_STRUCTURE_MODEL_ID}`, t + 59_999)).not.toThrow();
    // The first call leaves the window after 60 s: one more fits, then the second call's slot is needed.
    expect(() => gate.admit(profile, t + 60_000)).not.toThrow();
    expect(() => gate.admit(profile, t + 60_001)).toThrow(expect.objectContaining({ type: 'ThrottlingException' }));
    // Refused calls do not use the quota.
    expect(() => gate.admit(profile, t + 90_000)).not.toThrow();
  });

  test('npm start takes the quota from TOONZAP_BEDROCK_RPM (default none: unlimited, as before)', () => {
    expect(bedrockRpmFromEnv({})).toBeUndefined();
    expect(bedrockRpmFromEnv({ TOONZAP_BEDROCK_RPM: '' })).toBeUndefined();
    expect(bedrockRpmFromEnv({ TOONZAP_BEDROCK_RPM: '6' })).toBe(6);
    for (const bad of ['0', '-1', '2.5', 'six'])
      expect(() => bedrockRpmFromEnv({ TOONZAP_BEDROCK_RPM: bad })).toThrow(/TOONZAP_BEDROCK_RPM/);
  });

  test('application inference profile ARNs and every system profile geography are accepted', () => {
    const gate = accountGate({});
    for (const id of [
      'arn:aws:bedrock:us-west-2:123456789012:application-inference-profile/a1b2c3d4e5f6',
      `global.${CONTROL_STRUCTURE_MODEL_ID}`,
      `apac.${CONTROL_STRUCTURE_MODEL_ID}`,
      `eu.${CONTROL_STRUCTURE_MODEL_ID}`,
    ])
      expect(() => gate.admit(id)).not.toThrow();
    expect(() => gate.admit(CONTROL_STRUCTURE_MODEL_ID)).toThrow(/on-demand throughput/);
  });

  test("the handlers' client: the account's answers are misconfigured (counted for the alarm), the quota throttled", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_BEDROCK_RUNTIME: bedrock.url,
      BEDROCK_REGION: 'us-west-2',
      AWS_ACCESS_KEY_ID: 'x',
      AWS_SECRET_ACCESS_KEY: 'x',
    });
    const addMetric = jest.spyOn(metrics, 'addMetric').mockImplementation(() => metrics);
    const counted = () => addMetric.mock.calls.filter(([name]) => name === METRICS.modelMisconfigured).length;
    const png = Buffer.from(body.image, 'base64');
    const call = (modelId = profile) => invokeControlStructure({ ...styles['3d'], modelId }, png, 7);
    try {
      await expect(call(CONTROL_STRUCTURE_MODEL_ID)).rejects.toMatchObject({ name: GENERATIVE_ERRORS.misconfigured });
      expect(counted()).toBe(1);
      bedrock.setUnsubscribed([CONTROL_STRUCTURE_MODEL_ID]);
      await expect(call()).rejects.toMatchObject({ name: GENERATIVE_ERRORS.misconfigured });
      expect(counted()).toBe(2);
      bedrock.setUnsubscribed([]);
      // A minute after the earlier tests' calls, so the window holds only this test's.
      const later = Date.now() + 61_000;
      jest.spyOn(Date, 'now').mockImplementation(() => later);
      bedrock.setRequestsPerMinute(1);
      await expect(call()).resolves.toBeInstanceOf(Buffer);
      await expect(call()).rejects.toMatchObject({ name: GENERATIVE_ERRORS.throttled });
      expect(counted()).toBe(2);
    } finally {
      jest.restoreAllMocks();
      process.env = saved;
    }
  });
});
