import * as fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  DetectLabelsCommand,
  DetectModerationLabelsCommand,
  type DetectModerationLabelsCommandOutput,
  ImageTooLargeException,
  InvalidImageFormatException,
  InvalidParameterException,
  InvalidS3ObjectException,
  RekognitionClient,
  RekognitionServiceException,
} from '@aws-sdk/client-rekognition';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { judgeLabels } from '../../domain/moderation-policy';
import {
  classifyImage,
  MODERATION_MODEL_VERSION,
  mapScoresToContentTypes,
  mapScoresToModerationLabels,
  type NsfwScores,
} from '../../local/rekognition/nsfw-model';
import { type LocalRekognition, MAX_S3_IMAGE, startLocalRekognition } from '../../local/rekognition/server';

import { bigPhoto, PHOTOS } from '../fixtures/photos';

const ASTRONAUT = path.join(PHOTOS, 'astronaut.png');
const COFFEE = path.join(PHOTOS, 'coffee.png');
const BUCKET = 'toonzap-uploads';

/** Labels a clothed person / a coffee cup must never get (Rekognition moderation v7 L1 names). */
const FORBIDDEN_L1 = ['Explicit', 'Non-Explicit Nudity of Intimate parts and Kissing', 'Swimwear or Underwear'];

const ENV_KEYS = [
  'AWS_ENDPOINT_URL_REKOGNITION',
  'AWS_ENDPOINT_URL_S3',
  'S3_FORCE_PATH_STYLE',
  'AWS_REGION',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
] as const;

const scores = (p: Partial<NsfwScores>): NsfwScores => ({ Drawing: 0, Hentai: 0, Neutral: 0, Porn: 0, Sexy: 0, ...p });

describe('label mapping (pure)', () => {
  test('high Porn probability → Explicit (L1) + Explicit Nudity (L2, parent Explicit)', () => {
    const labels = mapScoresToModerationLabels(scores({ Porn: 0.93, Neutral: 0.05, Sexy: 0.02 }));
    expect(labels).toEqual([
      { Name: 'Explicit', ParentName: '', TaxonomyLevel: 1, Confidence: expect.closeTo(93, 5) },
      { Name: 'Explicit Nudity', ParentName: 'Explicit', TaxonomyLevel: 2, Confidence: expect.closeTo(93, 5) },
    ]);
    // …which the product's moderation policy rejects.
    expect(judgeLabels(labels, 50).allowed).toBe(false);
  });

  test('Hentai → Explicit + Explicit Sexual Activity, and an Illustrated content type', () => {
    const s = scores({ Hentai: 0.8, Drawing: 0.15, Neutral: 0.05 });
    expect(mapScoresToModerationLabels(s).map((l) => [l.Name, l.ParentName, l.TaxonomyLevel])).toEqual([
      ['Explicit', '', 1],
      ['Explicit Sexual Activity', 'Explicit', 2],
    ]);
    expect(mapScoresToContentTypes(s)).toEqual([{ Name: 'Illustrated', Confidence: expect.closeTo(95, 5) }]);
  });

  test('Porn + Hentai add up at the Explicit level even when neither child passes MinConfidence', () => {
    const labels = mapScoresToModerationLabels(scores({ Porn: 0.35, Hentai: 0.3, Neutral: 0.35 }));
    expect(labels).toEqual([{ Name: 'Explicit', ParentName: '', TaxonomyLevel: 1, Confidence: expect.closeTo(65, 5) }]);
  });

  test('Sexy (suggestive) maps to Swimwear or Underwear at any confidence, never to nudity, and the policy allows it', () => {
    for (const p of [0.6, 0.89, 0.99]) {
      const labels = mapScoresToModerationLabels(scores({ Sexy: p, Neutral: 1 - p }));
      expect(labels).toEqual([
        { Name: 'Swimwear or Underwear', ParentName: '', TaxonomyLevel: 1, Confidence: expect.closeTo(p * 100, 5) },
      ]);
      expect(judgeLabels(labels, 60)).toEqual({ allowed: true, reasons: [], category: null });
    }
  });

  test('Neutral / Drawing give no moderation labels; MinConfidence filters (default 50)', () => {
    expect(mapScoresToModerationLabels(scores({ Neutral: 0.9, Drawing: 0.1 }))).toEqual([]);
    expect(mapScoresToModerationLabels(scores({ Drawing: 1 }))).toEqual([]);
    expect(mapScoresToModerationLabels(scores({ Porn: 0.4, Neutral: 0.6 }))).toEqual([]);
    expect(mapScoresToModerationLabels(scores({ Porn: 0.4, Neutral: 0.6 }), 30).map((l) => l.Name)).toEqual([
      'Explicit',
      'Explicit Nudity',
    ]);
  });
});

describe('local Rekognition DetectModerationLabels via @aws-sdk/client-rekognition', () => {
  const savedEnv: Partial<Record<(typeof ENV_KEYS)[number], string | undefined>> = {};
  let dataDir: string;
  let s3rver: { run(): Promise<AddressInfo>; close(): Promise<void> };
  let s3: S3Client;
  let rekognition: LocalRekognition;
  let client: RekognitionClient;

  beforeAll(async () => {
    for (const k of ENV_KEYS) savedEnv[k] = process.env[k];
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-rekognition-'));
    const S3rver = require('s3rver') as new (opts: object) => typeof s3rver;
    s3rver = new S3rver({
      port: 0,
      address: '127.0.0.1',
      directory: dataDir,
      silent: true,
      configureBuckets: [{ name: BUCKET }],
    });
    const { port: s3Port } = await s3rver.run();

    // The same env the local runtime gives a Lambda handler: S3 and Rekognition endpoints via env vars.
    process.env.AWS_ENDPOINT_URL_S3 = `http://127.0.0.1:${s3Port}`;
    process.env.S3_FORCE_PATH_STYLE = 'true';
    process.env.AWS_REGION = 'us-east-1';
    process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
    process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';

    s3 = new S3Client({ forcePathStyle: true });
    await s3.send(new CreateBucketCommand({ Bucket: BUCKET })).catch(() => undefined);
    const put = (Key: string, Body: Buffer, ContentType: string) =>
      s3.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body, ContentType }));
    await put('uploads/astronaut.png', fs.readFileSync(ASTRONAUT), 'image/png');
    await put('uploads/coffee.png', fs.readFileSync(COFFEE), 'image/png');
    await put('uploads/astronaut_12mp.jpg', await bigPhoto(), 'image/jpeg');
    await put('uploads/notes.png', Buffer.from('this is not an image, just text\n'), 'image/png');
    const png = fs.readFileSync(COFFEE);
    await put('uploads/huge.png', Buffer.concat([png, Buffer.alloc(MAX_S3_IMAGE + 1 - png.length)]), 'image/png');

    rekognition = await startLocalRekognition(s3);
    process.env.AWS_ENDPOINT_URL_REKOGNITION = rekognition.url;
    // Exactly what the handler does in AWS.
    client = new RekognitionClient({});
  });

  afterAll(async () => {
    client?.destroy();
    s3?.destroy();
    await rekognition?.close();
    await s3rver?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    for (const k of ENV_KEYS) {
      if (savedEnv[k] === undefined) delete process.env[k];
      else process.env[k] = savedEnv[k];
    }
  });

  const detectS3 = (Name: string, MinConfidence?: number): Promise<DetectModerationLabelsCommandOutput> =>
    client.send(new DetectModerationLabelsCommand({ Image: { S3Object: { Bucket: BUCKET, Name } }, MinConfidence }));

  const rejection = async (p: Promise<unknown>): Promise<unknown> => {
    try {
      await p;
    } catch (err) {
      return err;
    }
    throw new Error('expected the call to fail');
  };

  function expectNotFlagged(out: DetectModerationLabelsCommandOutput): void {
    const names = (out.ModerationLabels ?? []).flatMap((l) => [l.Name, l.ParentName]);
    for (const forbidden of FORBIDDEN_L1) expect(names).not.toContain(forbidden);
    expect(judgeLabels(out.ModerationLabels ?? [], 50)).toEqual({ allowed: true, reasons: [], category: null });
  }

  test('S3Object: the clothed astronaut portrait is not flagged', async () => {
    const out = await detectS3('uploads/astronaut.png');
    expect(out.$metadata.httpStatusCode).toBe(200);
    expect(out.ModerationModelVersion).toBe(MODERATION_MODEL_VERSION);
    expect(out.ModerationLabels).toEqual([]);
    expectNotFlagged(out);
    // Far from the threshold, not just under it.
    const all = await detectS3('uploads/astronaut.png', 0);
    for (const l of all.ModerationLabels ?? []) expect(l.Confidence).toBeLessThan(5);
  });

  test('S3Object: coffee.png and the 12 MP JPEG are not flagged', async () => {
    const coffee = await detectS3('uploads/coffee.png');
    expect(coffee.ModerationLabels).toEqual([]);
    expectNotFlagged(coffee);
    const big = await detectS3('uploads/astronaut_12mp.jpg');
    expect(big.ModerationLabels).toEqual([]);
    expectNotFlagged(big);
  });

  test('the model output is deterministic', async () => {
    const a = await detectS3('uploads/astronaut.png', 0);
    const b = await detectS3('uploads/astronaut.png', 0);
    expect(a.ModerationLabels?.length).toBeGreaterThan(0); // MinConfidence 0 → every label with Confidence > 0
    expect(b.ModerationLabels).toEqual(a.ModerationLabels);
    expect(b.ContentTypes).toEqual(a.ContentTypes);
    // Concurrent requests share the one model and still agree.
    const parallel = await Promise.all([1, 2, 3].map(() => detectS3('uploads/astronaut.png', 0)));
    for (const p of parallel) expect(p.ModerationLabels).toEqual(a.ModerationLabels);

    const buf = fs.readFileSync(ASTRONAUT);
    const r1 = await classifyImage(buf);
    const r2 = await classifyImage(buf);
    expect(r2.scores).toEqual(r1.scores);
    expect(r1.scores.Neutral).toBeGreaterThan(0.5);
    const sum = Object.values(r1.scores).reduce((x, y) => x + y, 0);
    expect(sum).toBeCloseTo(1, 3);
  });

  test('non-image bytes → InvalidImageFormatException', async () => {
    const err = await rejection(detectS3('uploads/notes.png'));
    expect(err).toBeInstanceOf(InvalidImageFormatException);
    const e = err as InvalidImageFormatException;
    expect(e.name).toBe('InvalidImageFormatException');
    expect(e.$fault).toBe('client');
    expect(e.$metadata.httpStatusCode).toBe(400);
    expect(e.message).toBe('Request has invalid image format');
    // The SDK folds the body's Message into .message (and deletes .Message); Code/Logref come through.
    expect(e.Code).toBe('InvalidImageFormatException');
    expect(e.Logref).toEqual(expect.any(String));
  });

  test('missing S3 object or bucket → InvalidS3ObjectException', async () => {
    const err = await rejection(detectS3('uploads/does-not-exist.png'));
    expect(err).toBeInstanceOf(InvalidS3ObjectException);
    expect((err as InvalidS3ObjectException).$metadata.httpStatusCode).toBe(400);
    await expect(
      client.send(
        new DetectModerationLabelsCommand({ Image: { S3Object: { Bucket: 'no-such-bucket', Name: 'x.png' } } }),
      ),
    ).rejects.toBeInstanceOf(InvalidS3ObjectException);
  });

  test('an S3 object over 15 MB → ImageTooLargeException', async () => {
    const err = await rejection(detectS3('uploads/huge.png'));
    expect(err).toBeInstanceOf(ImageTooLargeException);
    expect((err as ImageTooLargeException).$metadata.httpStatusCode).toBe(400);
  });

  test('bad parameters (Image.Bytes too, which the app never sends) → InvalidParameterException', async () => {
    await expect(
      client.send(
        new DetectModerationLabelsCommand({
          Image: { Bytes: fs.readFileSync(COFFEE), S3Object: { Bucket: BUCKET, Name: 'uploads/coffee.png' } },
        }),
      ),
    ).rejects.toBeInstanceOf(InvalidParameterException);
    await expect(client.send(new DetectModerationLabelsCommand({ Image: {} }))).rejects.toBeInstanceOf(
      InvalidParameterException,
    );
    await expect(
      client.send(new DetectModerationLabelsCommand({ Image: { Bytes: fs.readFileSync(COFFEE) } })),
    ).rejects.toBeInstanceOf(InvalidParameterException);
    await expect(detectS3('uploads/coffee.png', 101)).rejects.toBeInstanceOf(InvalidParameterException);
  });

  test('other operations → UnknownOperationException (400)', async () => {
    const err = await rejection(
      client.send(new DetectLabelsCommand({ Image: { S3Object: { Bucket: BUCKET, Name: 'uploads/coffee.png' } } })),
    );
    expect(err).toBeInstanceOf(RekognitionServiceException);
    expect((err as RekognitionServiceException).name).toBe('UnknownOperationException');
    expect((err as RekognitionServiceException).$metadata.httpStatusCode).toBe(400);

    const res = await fetch(`${rekognition.url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'RekognitionService.CompareFaces' },
      body: '{}',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-amzn-errortype')).toBe('UnknownOperationException');
    expect(await res.json()).toMatchObject({ __type: 'UnknownOperationException' });
  });
});
