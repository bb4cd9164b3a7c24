import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { InvokeEndpointCommand, ModelError, SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import sharp from 'sharp';
import { analysisFromJson, analysisToJson, renderStyle, renderThumbnail } from '../../engine';
import { type ModelServer, startModelServer } from '../../engine/server';
import { smallPhoto } from './helpers';

// s3rver ships no types
const S3rver = require('s3rver');

const ENV_KEYS = [
  'AWS_ENDPOINT_URL_S3',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_REGION',
  'S3_FORCE_PATH_STYLE',
];
const savedEnv: Record<string, string | undefined> = {};

let s3rver: { run(): Promise<AddressInfo>; close(): Promise<void> };
let tmp: string;
let server: ModelServer;
let s3: S3Client;
let sm: SageMakerRuntimeClient;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-s3-'));
  s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: tmp });
  const addr = await s3rver.run();
  for (const k of ENV_KEYS) savedEnv[k] = process.env[k];
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${addr.port}`,
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    AWS_REGION: 'us-east-1',
    S3_FORCE_PATH_STYLE: 'true',
  });
  // the server builds its S3 client from the environment, exactly as in production
  server = await startModelServer({ port: 0, host: '127.0.0.1' });
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  s3 = new S3Client({
    region: 'us-east-1',
    endpoint: process.env.AWS_ENDPOINT_URL_S3,
    forcePathStyle: true,
    credentials,
  });
  sm = new SageMakerRuntimeClient({
    region: 'us-east-1',
    endpoint: server.url,
    credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
  });
  await s3.send(new CreateBucketCommand({ Bucket: 'uploads' }));
  await s3.send(new CreateBucketCommand({ Bucket: 'results' }));
  const input = await sharp(await smallPhoto('astronaut.png', 300))
    .jpeg()
    .toBuffer();
  await s3.send(
    new PutObjectCommand({ Bucket: 'uploads', Key: 'u1/photo.jpg', Body: input, ContentType: 'image/jpeg' }),
  );
});

afterAll(async () => {
  await server?.close();
  s3?.destroy();
  sm?.destroy();
  await s3rver?.close();
  for (const k of ENV_KEYS) {
    if (savedEnv[k] === undefined) delete process.env[k];
    else process.env[k] = savedEnv[k];
  }
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function invoke(body: unknown) {
  const res = await sm.send(
    new InvokeEndpointCommand({
      EndpointName: 'toonzap-engine',
      ContentType: 'application/json',
      Body: JSON.stringify(body),
    }),
  );
  return JSON.parse(Buffer.from(res.Body as Uint8Array).toString('utf8'));
}

describe('model server (SageMaker container contract)', () => {
  it('answers GET /ping with 200', async () => {
    const res = await fetch(`${server.url}/ping`);
    expect(res.status).toBe(200);
  });

  it('renders from S3 to S3 through the SageMaker runtime SDK', async () => {
    const out = await invoke({
      input: { bucket: 'uploads', key: 'u1/photo.jpg' },
      output: { bucket: 'results', key: 'u1/anime.png' },
      style: 'anime',
      size: 200,
    });
    expect(out).toMatchObject({
      output: { bucket: 'results', key: 'u1/anime.png' },
      width: 200,
      height: 200,
      style: 'anime',
    });
    expect(typeof out.ms).toBe('number');
    const obj = await s3.send(new GetObjectCommand({ Bucket: 'results', Key: 'u1/anime.png' }));
    expect(obj.ContentType).toBe('image/png');
    const png = Buffer.from(await obj.Body!.transformToByteArray());
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 200, 200]);
  });

  it('renders watermarked thumbnails via POST /invocations', async () => {
    const res = await fetch(`${server.url}/invocations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        input: { bucket: 'uploads', key: 'u1/photo.jpg' },
        output: { bucket: 'results', key: 'u1/thumb.png' },
        style: 'comic',
        kind: 'thumbnail',
        watermark: true,
      }),
    });
    expect(res.status).toBe(200);
    const out = await res.json();
    expect([out.width, out.height]).toEqual([256, 256]);
  });

  it('gates paid images: a render of the photo passes with its measures, a blank one is a ModelError', async () => {
    const data = (await smallPhoto('astronaut.png', 128)).toString('base64');
    const ok = await invoke({ input: { data }, style: 'comic', size: 128 });
    expect(ok.quality.edgeCorrelation).toBeGreaterThan(0.5);
    // A flat photo has no structure to keep: whatever a style draws on it is not delivered as a paid image.
    const flat = await sharp({ create: { width: 128, height: 128, channels: 3, background: '#808080' } })
      .png()
      .toBuffer();
    const err = await invoke({ input: { data: flat.toString('base64') }, style: 'comic', size: 128 }).catch((e) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect((err as ModelError).message).toMatch(/Quality gate failed for comic: .*(blank|structure)/);
    // Previews are not gated.
    const thumb = await invoke({ input: { data: flat.toString('base64') }, style: 'comic', kind: 'thumbnail' });
    expect(thumb.quality).toBeUndefined();
  });

  it('accepts a small base64 image and answers with base64 PNG when no output is given', async () => {
    const data = (await smallPhoto('chelsea.png', 96)).toString('base64');
    // an image (paid) render: the 96-px photo is enlarged to the size asked for
    const out = await invoke({ input: { data }, style: 'sketch', size: 160 });
    const meta = await sharp(Buffer.from(out.data, 'base64')).metadata();
    expect([meta.format, meta.width]).toEqual(['png', 160]);
  });

  it('reports an unknown style as ModelError (424) that the SDK raises with the message', async () => {
    const err = await invoke({
      input: { bucket: 'uploads', key: 'u1/photo.jpg' },
      output: { bucket: 'results', key: 'u1/x.png' },
      style: 'vaporwave',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    const me = err as ModelError;
    expect(me.$metadata.httpStatusCode).toBe(424);
    expect(me.OriginalStatusCode).toBe(400);
    expect(me.OriginalMessage).toMatch(/Unknown style 'vaporwave'/);
    expect(me.message).toMatch(/Received client error \(400\) from model with message "Unknown style 'vaporwave'/);
  });

  it('analyses each photo once, keeps it beside the upload as analysis/<sha256>.json, and reuses it', async () => {
    const bytes = Buffer.from(
      await (
        await s3.send(new GetObjectCommand({ Bucket: 'uploads', Key: 'u1/photo.jpg' }))
      ).Body!.transformToByteArray(),
    );
    const key = `analysis/${createHash('sha256').update(bytes).digest('hex')}.json`;
    /** A paid 3d render of the photo at 200 px into results/u1/<name>. */
    const paid3d = (name: string) =>
      invoke({
        input: { bucket: 'uploads', key: 'u1/photo.jpg' },
        output: { bucket: 'results', key: `u1/${name}` },
        style: '3d',
        size: 200,
      });
    const readCached = async () =>
      analysisFromJson(
        await (await s3.send(new GetObjectCommand({ Bucket: 'uploads', Key: key }))).Body!.transformToString(),
      );
    await paid3d('3d.png');
    const cached = await readCached();
    expect(cached).toMatchObject({ faces: [expect.anything()], thorough: true }); // a paid render's
    const out = async (k: string) =>
      Buffer.from(
        await (await s3.send(new GetObjectCommand({ Bucket: 'results', Key: k }))).Body!.transformToByteArray(),
      );
    expect((await out('u1/3d.png')).equals(await renderStyle(bytes, '3d', { maxSize: 200, analysis: cached }))).toBe(
      true,
    );
    // the next render reads the cached object instead of analysing again: a doctored one (nobody there) wins
    await s3.send(
      new PutObjectCommand({
        Bucket: 'uploads',
        Key: key,
        Body: analysisToJson({ ...cached, faces: [], mask: null, coverage: 0 }),
      }),
    );
    await paid3d('3d-b.png');
    expect((await out('u1/3d-b.png')).equals(await renderStyle(bytes, '3d', { maxSize: 200, analysis: null }))).toBe(
      true,
    );
    // a corrupt cache entry is recomputed and replaced, never an error
    await s3.send(new PutObjectCommand({ Bucket: 'uploads', Key: key, Body: '{broken' }));
    await paid3d('3d-c.png');
    expect((await out('u1/3d-c.png')).equals(await out('u1/3d.png'))).toBe(true);
    expect((await readCached()).faces).toHaveLength(1);
    // a preview's analysis that skipped the tiles (doctored: nobody there) serves previews as it is, but a paid
    // render analyses the photo again, thoroughly, and keeps that
    const preview = analysisToJson({ ...cached, faces: [], mask: null, coverage: 0, thorough: false });
    await s3.send(new PutObjectCommand({ Bucket: 'uploads', Key: key, Body: preview }));
    const thumbnail = { input: { bucket: 'uploads', key: 'u1/photo.jpg' }, style: '3d', kind: 'thumbnail', size: 200 };
    await invoke({ ...thumbnail, output: { bucket: 'results', key: 'u1/3d-t.png' } });
    const blind = await renderThumbnail(bytes, '3d', { size: 200, analysis: null });
    expect((await out('u1/3d-t.png')).equals(blind)).toBe(true);
    await paid3d('3d-d.png');
    expect((await out('u1/3d-d.png')).equals(await out('u1/3d.png'))).toBe(true);
    expect(await readCached()).toMatchObject({ faces: [expect.anything()], thorough: true });
  });

  it('checks an image made elsewhere against its photo, faces included (the check operation)', async () => {
    const photo = await sharp(await smallPhoto('astronaut.png', 300))
      .jpeg()
      .toBuffer();
    await s3.send(new PutObjectCommand({ Bucket: 'uploads', Key: 'c/photo.jpg', Body: photo }));
    const put = (key: string, body: Buffer) =>
      s3.send(new PutObjectCommand({ Bucket: 'results', Key: key, Body: body }));
    const input = { bucket: 'uploads', key: 'c/photo.jpg' };
    // the photo enlarged: the same person
    await put('c/same.png', await sharp(photo).resize(900).png().toBuffer());
    const same = await invoke({ op: 'check', input, output: { bucket: 'results', key: 'c/same.png' } });
    expect(same).toMatchObject({ ok: true, faces: [expect.objectContaining({ similarity: expect.any(Number) })] });
    expect(same.faces[0].similarity).toBeGreaterThanOrEqual(0.5);
    // the face painted over: the structure is kept, the person is not; an answer, not an error
    const analysis = await invoke({ op: 'check', input, output: { bucket: 'results', key: 'c/same.png' } });
    const [x, y, w, h] = (analysis.faces[0].box as number[]).map(Math.round);
    const erased = await sharp(photo)
      .composite([{ input: { create: { width: w, height: h, channels: 3, background: '#b08070' } }, left: x, top: y }])
      .png()
      .toBuffer();
    await put('c/erased.png', erased);
    const lost = await invoke({ op: 'check', input, output: { bucket: 'results', key: 'c/erased.png' } });
    expect(lost).toMatchObject({ ok: false, check: 'faces' });
    expect(lost.reason).toMatch(/face in the photo was lost or changed.*\(likeness 0\.\d+ < 0\.5\)/);
    expect(lost.edgeCorrelation).toBeGreaterThan(0.5);
    // bad input: a 4xx ModelError with its reason, nothing checked
    const refused = async (body: unknown) => {
      const res = await fetch(`${server.url}/invocations`, { method: 'POST', body: JSON.stringify(body) });
      expect(res.status).toBe(424);
      return ((await res.json()) as { OriginalMessage: string }).OriginalMessage;
    };
    expect(await refused({ op: 'grade', input, output: input })).toBe('"op" must be "check"');
    expect(await refused({ op: 'check', input })).toMatch(/^"output" /);
    expect(await refused({ op: 'check', input, output: { bucket: 'results', key: 'c/none.png' } })).toMatch(
      /not found/,
    );
    await put('c/text.png', Buffer.from('not an image'));
    expect(await refused({ op: 'check', input, output: { bucket: 'results', key: 'c/text.png' } })).toBe(
      'The image to check is not a readable image.',
    );
  });

  it('reports bad requests, missing objects and bad images as ModelError', async () => {
    await expect(invoke({ style: 'anime' })).rejects.toBeInstanceOf(ModelError);
    await expect(
      invoke({
        input: { bucket: 'uploads', key: 'missing.jpg' },
        output: { bucket: 'results', key: 'm.png' },
        style: 'anime',
      }),
    ).rejects.toThrow(/not found/);
    await s3.send(new PutObjectCommand({ Bucket: 'uploads', Key: 'bad.gif', Body: Buffer.from('GIF89a....') }));
    await expect(
      invoke({
        input: { bucket: 'uploads', key: 'bad.gif' },
        output: { bucket: 'results', key: 'b.png' },
        style: 'anime',
      }),
    ).rejects.toThrow(/only JPEG and PNG/);
    const raw = await fetch(`${server.url}/invocations`, { method: 'POST', body: '{not json' });
    expect(raw.status).toBe(424);
    expect(raw.headers.get('x-amzn-errortype')).toMatch(/^ModelError:/);
    // a batch the shared schema (domain/engine-request.ts) refuses: 4xx with its reason, nothing rendered
    const batch = await fetch(`${server.url}/invocations`, {
      method: 'POST',
      body: JSON.stringify({
        input: { bucket: 'uploads', key: 'u1/photo.jpg' },
        size: 8,
        outputs: [{ style: 'anime', bucket: 'results', key: 'never.png' }],
      }),
    });
    expect(batch.status).toBe(424);
    expect(((await batch.json()) as { OriginalMessage: string }).OriginalMessage).toBe(
      '"size" must be an integer between 16 and 4096',
    );
  });
});
