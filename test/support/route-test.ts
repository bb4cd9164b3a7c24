import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { NoSuchKey, NotFound } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { z } from 'zod';
import { type Contract, contract, type RouteName } from '../../domain/contract';
import { itemKey, orderItems } from '../../domain/orders';
import { OWNER_COOKIE } from '../../domain/ownership';
import { orderSummary } from '../../domain/pricing';
import { ENV, TABLES, type TableName, tableEnvVar } from '../../domain/wiring';
import type { GenerationItem, GenerationRecord } from '../../lambdas/lib/generations';
import type { HttpResult } from '../../lambdas/lib/http';
import type { OrderRecord } from '../../lambdas/lib/orders';
import type { HoldRecord } from '../../lambdas/lib/owners';

/**
 * Handler tests of lambdas/routes/*: the environment a route function gets, browsers with their owner secret, and
 * answers read through the contract. AWS is mocked at the SDK's command level (aws-sdk-client-mock) in each test.
 */

/**
 * Region and (fake) credentials: presigned URLs are signed locally by the SDK, which needs both; every other call is
 * answered by the mocks. No origin secret: the handlers are called directly, as API Gateway would after CloudFront.
 */
export function sdkEnv(): void {
  Object.assign(process.env, { AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'AKIDTEST', AWS_SECRET_ACCESS_KEY: 'test' });
  delete process.env[ENV.originVerifySecret];
  delete process.env[ENV.originSecretArn];
}

/**
 * The table variables of the tables a route reads or writes, each table named as the handlers know it. Only those: a
 * route that touches another table answers 500 (its variable is not set), as it would fail without the grant.
 */
export const tableEnv = (...tables: TableName[]): Record<string, string> =>
  Object.fromEntries(tables.map((t) => [tableEnvVar(t), t]));

/** One visitor's browser: its owner secret cookie (as upload-image issues it) and the owner id the tables keep. */
export interface Browser {
  cookies: string[];
  owner: string;
}

export function browser(name: string): Browser {
  const secret = createHash('sha256').update(name).digest('base64url');
  return { cookies: [`${OWNER_COOKIE}=${secret}`], owner: createHash('sha256').update(secret).digest('hex') };
}

/** The DynamoDB document client's mock; `ddb.on(GetCommand).resolves({})` and such in each test's setup. */
export const mockDdb = () => mockClient(DynamoDBDocumentClient);
export type DdbMock = ReturnType<typeof mockDdb>;

/** The table holds this item: GetItem of its key answers it (later calls win over earlier ones). */
export function storeItem<T extends object>(ddb: DdbMock, table: TableName, item: T): void {
  const key = TABLES[table];
  ddb
    .on(GetCommand, { TableName: table, Key: { [key]: (item as Record<string, unknown>)[key] } })
    .resolves({ Item: item as Record<string, unknown> });
}

/** An owner's hold on a photo as the holds table keeps it (`<hash>#owner#<owner id>`, lambdas/lib/owners.ts). */
export function ownerHold(hash: string, who: Browser, state: 'owner' | 'pending', registration?: string): HoldRecord {
  return {
    hold_id: `${hash}#owner#${who.owner}`,
    image_hash: hash,
    holder: `owner#${who.owner}`,
    state,
    ...(registration ? { registration_id: registration } : {}),
    created_at: '2026-11-23T14:00:00.000Z',
  };
}

/** An answer's status and its body parsed by the route's response schema (domain/contract.ts): its shape checked. */
export function answer<R extends RouteName>(
  route: R,
  res: HttpResult,
): { status: number; body: z.output<Contract[R]['response']> } {
  const schema: z.ZodType = contract[route].response;
  return { status: res.statusCode, body: schema.parse(JSON.parse(res.body)) as z.output<Contract[R]['response']> };
}

/** An error answer: status and body. */
export const failure = (res: HttpResult) => ({ status: res.statusCode, body: JSON.parse(res.body) as unknown });

/** What the SDK throws for a missing object: HEAD answers NotFound, GET NoSuchKey. */
export const headMissing = () => new NotFound({ message: 'Not Found', $metadata: { httpStatusCode: 404 } });
export const getMissing = () => new NoSuchKey({ message: 'The specified key does not exist.', $metadata: {} });

/** What the SDK throws for a write whose condition did not hold. */
export const conditionFailed = () =>
  new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });

/** An S3 GetObject body as the SDK hands it (only what the handlers read of it). */
export const objectBody = (bytes: Buffer) => ({ transformToByteArray: async () => new Uint8Array(bytes) }) as never;

/**
 * The bytes of a PNG of this size as far as the server reads one (signature and IHDR: type and pixel size,
 * domain/image-format.ts readImageInfo), with the photo's SHA-256: enough for the upload checks, no decoder needed.
 */
export function pngPhoto(width: number, height: number, salt = ''): { bytes: Buffer; hash: string } {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const type = Buffer.from('IHDR');
  const chunk = Buffer.alloc(12 + ihdr.length);
  chunk.writeUInt32BE(ihdr.length, 0);
  type.copy(chunk, 4);
  ihdr.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(Buffer.concat([type, ihdr])), 8 + ihdr.length);
  const bytes = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk,
    Buffer.from(salt),
  ]);
  return { bytes, hash: createHash('sha256').update(bytes).digest('hex') };
}

/** A paid order as checkout and the webhook leave it: priced by domain/pricing.ts, its session and payment stored. */
export function paidOrder(
  orderId: string,
  hashes: string[],
  styles: string[],
  over: Partial<OrderRecord> = {},
): OrderRecord {
  const summary = orderSummary(hashes.length, styles.length);
  return {
    order_id: orderId,
    status: 'paid',
    email: 'buyer@example.com',
    email_key: 'buyer@example.com',
    hashes,
    styles,
    generations: summary.totalGenerations,
    price_per_generation: summary.pricePerGeneration,
    original_price: summary.originalPrice,
    discount: summary.discount,
    total: summary.total,
    currency: 'usd',
    created_at: '2026-11-23T12:00:00.000Z',
    session_expires_at: Date.parse('2026-11-23T12:31:00.000Z') / 1000,
    session_id: 'cs_test_1',
    payment_intent: 'pi_test_1',
    paid_at: '2026-11-23T12:05:00.000Z',
    ...over,
  };
}

/** A share id (128 bits, base64url) for a photo of an order, the same in every test. */
export const shareIdOf = (orderId: string, hash: string) =>
  createHash('sha256').update(`${orderId}/${hash}`).digest('base64url').slice(0, 22);

/**
 * The order's generation: every (photo, style) pending unless `items` says otherwise (keyed `<hash>:<style>`), a
 * share id per photo.
 */
export function generationOf(
  order: OrderRecord,
  items: Record<string, Partial<GenerationItem>> = {},
  over: Partial<GenerationRecord> = {},
): GenerationRecord {
  const all = Object.fromEntries(
    orderItems(order.hashes, order.styles).map((i) => {
      const key = itemKey(i.image_hash, i.style);
      return [key, { ...i, status: 'pending' as const, ...items[key] }];
    }),
  );
  const count = (status: string) => Object.values(all).filter((i) => i.status === status).length;
  return {
    generation_id: order.order_id,
    order_id: order.order_id,
    email: order.email,
    status: 'processing',
    items: all,
    item_count: Object.keys(all).length,
    done_count: count('done'),
    failed_count: count('failed'),
    total: order.total,
    currency: order.currency,
    payment_intent: order.payment_intent ?? '',
    created_at: '2026-11-23T12:05:00.000Z',
    updated_at: '2026-11-23T12:10:00.000Z',
    share_ids: Object.fromEntries(order.hashes.map((h) => [h, shareIdOf(order.order_id, h)])),
    ...over,
  };
}

/** A meta tag's content in a page, by its property or name (as crawlers read it), unescaped. */
export function metaContent(html: string, key: string): string | undefined {
  const re = new RegExp(`<meta (?:property|name)="${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" content="([^"]*)"`);
  return re.exec(html)?.[1]?.replace(/&amp;/g, '&');
}

/**
 * Addresses Stripe or SES would refuse, or that could carry markup or reordered text into a mail or a log: every form
 * that takes an address answers them with the spec's 'Please enter a valid email address.'
 */
export const REFUSED_ADDRESSES = [
  '<script>x</script>@evil.test',
  'ada@example.com\u0000',
  'ada\u202E@example.com',
  '"a"b@c.co',
  `${'a'.repeat(65)}@example.com`,
] as const;
