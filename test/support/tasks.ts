import type { InvokeModelCommand, InvokeModelCommandOutput } from '@aws-sdk/client-bedrock-runtime';
import { InvokeEndpointCommand, SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import { type AwsClientStub, mockClient } from 'aws-sdk-client-mock';
import sharp from 'sharp';
import { generativePresets } from '../../domain/config';
import type { EngineBatchRequest, EngineCheckRequest, EngineCheckResponse } from '../../domain/engine-request';
import { DEFAULT_BEDROCK_REGION, DEFAULT_GENERATIVE } from '../../domain/generative';
import { deadlineAt, itemKey, orderItems } from '../../domain/orders';
import { ENV, mediaKey } from '../../domain/wiring';
import type { GenerationItem, GenerationRecord } from '../../lambdas/lib/generations';
import type { ImageRecord } from '../../lambdas/lib/images';
import type { OrderRecord } from '../../lambdas/lib/orders';
import { sha256 } from '../fixtures/photos';
import { type FakeTables, tableEnv } from './fake-dynamo';
import type { FakeBucket } from './fake-s3';

/**
 * What the Step Functions task tests (test/lambdas/tasks/) share: the environment the stack gives every function
 * (lib/toonzap-stack.ts: tables, bucket, engine endpoint, the default generative styles), small photos made with
 * sharp, a paid order's records, and the engine endpoint as a SageMaker stub that writes what it is asked to.
 */
export const BUCKET = 'media';
export const TASK_ENV: Record<string, string> = {
  ...tableEnv,
  [ENV.mediaBucket]: BUCKET,
  [ENV.engineEndpoint]: 'toonzap-engine',
  [ENV.mailFrom]: 'ToonZap <no-reply@toonzap.test>',
  [ENV.supportEmail]: 'support@toonzap.test',
  [ENV.siteUrl]: 'https://toonzap.test',
  [ENV.bedrockRegion]: DEFAULT_BEDROCK_REGION,
  // The stack's default: 3d and anime drawn by the model, the other styles by the engine.
  [ENV.generativeStyles]: JSON.stringify(generativePresets(DEFAULT_GENERATIVE, DEFAULT_BEDROCK_REGION)),
  AWS_REGION: 'us-east-1',
};
/** The model the default generative styles call (their inference profile). */
export const MODEL_ID = generativePresets(DEFAULT_GENERATIVE, DEFAULT_BEDROCK_REGION)['3d']!.modelId;

/** A PNG of one colour. */
export async function png(width: number, height: number, background = '#c08050'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
}

export interface Photo {
  bytes: Buffer;
  hash: string;
  width: number;
  height: number;
}

/** A photo just over the minimum size (256 px on the short side), its hash the SHA-256 of its bytes. */
export async function photo(background = '#c08050', width = 320, height = 256): Promise<Photo> {
  const bytes = await png(width, height, background);
  return { bytes, hash: sha256(bytes), width, height };
}

/** A photo uploaded (its signed checksum kept by S3) and registered, not yet moderated. */
export function storeUploaded(tables: FakeTables, bucket: FakeBucket, p: Photo, over: Partial<ImageRecord> = {}) {
  bucket.put(mediaKey.upload(p.hash), p.bytes, { checksum: true, contentType: 'image/png' });
  tables.put('images', {
    image_hash: p.hash,
    file_type: 'image/png',
    file_size: p.bytes.length,
    registered_at: new Date().toISOString(),
    verified: false,
    ...over,
  } satisfies ImageRecord);
}

/** A photo uploaded and allowed, its verdict bound to the stored object (as moderation records it). */
export function storeAllowed(tables: FakeTables, bucket: FakeBucket, p: Photo, over: Partial<ImageRecord> = {}) {
  storeUploaded(tables, bucket, p);
  tables.put('images', {
    image_hash: p.hash,
    file_type: 'image/png',
    file_size: p.bytes.length,
    registered_at: new Date().toISOString(),
    verified: true,
    width: p.width,
    height: p.height,
    moderation: 'allowed',
    moderation_reasons: [],
    moderated_at: new Date().toISOString(),
    object_etag: bucket.etag(mediaKey.upload(p.hash)),
    object_size: p.bytes.length,
    ...over,
  } satisfies ImageRecord);
}

/** Writes other bytes over a stored upload: what a swap past the presigned URL would leave. */
export function replaceUpload(bucket: FakeBucket, p: Photo, bytes: Buffer) {
  bucket.put(mediaKey.upload(p.hash), bytes, { contentType: 'image/png' });
}

export const ORDER_ID = '6f1c1f9e-5b0e-4c53-9d1e-0a3f0c8b7d21';
export const PAYMENT_INTENT = 'pi_order';
/** 70 cents an image, as checkout would have charged it. */
export const PRICE = 70;

/**
 * A paid order of `hashes` × `styles` and its generation as the webhook's fulfilment stores them (every item
 * pending, a share id per photo), with `items` overriding single items (by itemKey) and `over` the generation.
 */
export function paidOrder(
  hashes: string[],
  styles: string[],
  opts: { items?: Record<string, Partial<GenerationItem>>; over?: Partial<GenerationRecord> } = {},
) {
  const created = new Date();
  const now = created.toISOString();
  const count = hashes.length * styles.length;
  const order: OrderRecord = {
    order_id: ORDER_ID,
    status: 'paid',
    email: 'buyer@example.com',
    hashes,
    styles,
    generations: count,
    price_per_generation: PRICE,
    original_price: PRICE * count,
    discount: 0,
    total: PRICE * count,
    currency: 'usd',
    created_at: now,
    session_expires_at: 0,
    session_id: 'cs_order',
    payment_intent: PAYMENT_INTENT,
    paid_at: now,
  };
  const items: Record<string, GenerationItem> = {};
  for (const item of orderItems(hashes, styles)) {
    const key = itemKey(item.image_hash, item.style);
    items[key] = { ...item, status: 'pending', ...opts.items?.[key] };
  }
  const generation: GenerationRecord = {
    generation_id: ORDER_ID,
    order_id: ORDER_ID,
    email: order.email,
    status: 'processing',
    items,
    item_count: count,
    done_count: Object.values(items).filter((i) => i.status === 'done').length,
    failed_count: Object.values(items).filter((i) => i.status === 'failed').length,
    total: order.total,
    currency: order.currency,
    payment_intent: PAYMENT_INTENT,
    created_at: now,
    updated_at: now,
    deadline_at: deadlineAt(created, 120),
    share_ids: Object.fromEntries(hashes.map((h, i) => [h, `share${i}${'x'.repeat(38)}`])),
    ...opts.over,
  };
  return { order, generation };
}

/** Stores a paid order and its generation. */
export function storeOrder(tables: FakeTables, records: ReturnType<typeof paidOrder>) {
  tables.put('orders', records.order);
  tables.put('generations', records.generation);
}

/** The generation as stored now. */
export const storedGeneration = (tables: FakeTables) => tables.get<GenerationRecord>('generations', ORDER_ID)!;

/** The quality gate's verdict on an image that passes. */
export const PASSED: EngineCheckResponse = { ok: true, edgeCorrelation: 0.6, contrast: 48, ms: 3 };

/**
 * The engine endpoint (engine/server.ts) as a SageMaker stub: a render writes a small PNG to every output it is
 * asked for (as the engine writes to S3 itself) and answers the documented batch response; a `check` answers
 * `verdict`. `fail` makes the next call throw (a throttled endpoint, a model error) before anything is written.
 */
export class FakeEngine {
  readonly stub: AwsClientStub<SageMakerRuntimeClient> = mockClient(SageMakerRuntimeClient);
  readonly renders: EngineBatchRequest[] = [];
  readonly checks: EngineCheckRequest[] = [];
  verdict: EngineCheckResponse = PASSED;
  private failures: Error[] = [];
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly bucket: FakeBucket) {
    this.reset();
  }

  reset(): void {
    this.renders.length = 0;
    this.checks.length = 0;
    this.verdict = PASSED;
    this.failures = [];
    this.stub.reset();
    this.stub.on(InvokeEndpointCommand).callsFake((input) => {
      const call = this.invoke(input.Body as Uint8Array);
      this.running.add(call);
      return call.finally(() => this.running.delete(call));
    });
  }

  /** Resolves once every call made so far has ended (so a test sees what a call left running wrote). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  private async invoke(body: Uint8Array) {
    const failure = this.failures.shift();
    if (failure) throw failure;
    const request = JSON.parse(new TextDecoder().decode(body));
    if (request.op === 'check') {
      this.checks.push(request);
      return answer(this.verdict);
    }
    this.renders.push(request);
    const outputs = [];
    for (const o of request.outputs as EngineBatchRequest['outputs']) {
      if (o.bucket !== this.bucket.name) throw new Error(`engine asked to write to ${o.bucket}`);
      this.bucket.put(o.key, await png(64, 48, '#3080c0'), { contentType: 'image/png' });
      outputs.push({ ...o, width: 64, height: 48 });
    }
    return answer({ outputs, ms: 5 });
  }

  /** The next call fails with `error` (an SDK error: ThrottlingException, ModelError...). */
  failNext(error: Error): void {
    this.failures.push(error);
  }
}

const answer = (body: unknown) => ({ Body: new TextEncoder().encode(JSON.stringify(body)) as never });

/** Bedrock InvokeModel's answer carrying `image` (Stability's documented body). */
export function modelAnswer(image: Buffer, finishReason: string | null = null): InvokeModelCommandOutput {
  const body = { seeds: [1], finish_reasons: [finishReason], images: finishReason ? [] : [image.toString('base64')] };
  return {
    body: new TextEncoder().encode(JSON.stringify(body)),
    contentType: 'application/json',
    $metadata: {},
  } as never;
}

/** The body an InvokeModel call was sent. */
export const modelRequest = (input: InvokeModelCommand['input']) =>
  JSON.parse(new TextDecoder().decode(input.body as Uint8Array)) as Record<string, unknown>;
