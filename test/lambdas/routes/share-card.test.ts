import { createHash } from 'node:crypto';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { API_SECURITY_HEADERS } from '../../../domain/security-headers';
import { ENV, mediaKey } from '../../../domain/wiring';
import { httpEvent } from '../../support/http-event';
import {
  failure,
  getMissing,
  mockDdb,
  objectBody,
  sdkEnv,
  shareIdOf,
  storeItem,
  tableEnv,
} from '../../support/route-test';

/**
 * GET /api/share-card/{id}/{style}: the share's JPEG (its page's og:image), served as it was made at delivery, for
 * as long as the order's images exist; an hour in caches at most, so a deletion is not outlived by long.
 */
sdkEnv();
Object.assign(process.env, tableEnv('shares'), { [ENV.mediaBucket]: 'media' });
let handler: typeof import('../../../lambdas/routes/share-card')['handler'];
beforeAll(async () => {
  ({ handler } = await import('../../../lambdas/routes/share-card'));
});

const ddb = mockDdb();
const s3 = mockClient(S3Client);
const ORDER = '6f1c1f9e-5b0e-4c53-9d1e-0a3f0c8b7d21';
const A = createHash('sha256').update('astronaut').digest('hex');
const SHARE = shareIdOf(ORDER, A);
/** A JPEG's first bytes and some more: what is stored is what is sent. */
const CARD = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('share card bytes')]);

const card = (id: string, style: string) =>
  handler(httpEvent('GET /api/share-card/{id}/{style}', { pathParameters: { id, style } }));
const notFound = { status: 404, body: { detail: 'Image or style not found.' } };

beforeEach(() => {
  ddb.reset();
  s3.reset();
  ddb.on(GetCommand).resolves({});
  storeItem(ddb, 'shares', { share_id: SHARE, order_id: ORDER, image_hash: A, created_at: '2026-11-23T12:00:00.000Z' });
  s3.on(GetObjectCommand).rejects(getMissing());
  s3.on(GetObjectCommand, { Bucket: 'media', Key: mediaKey.shareCard(SHARE, 'sketch') }).resolves({
    ContentLength: CARD.length,
    Body: objectBody(CARD),
  });
});

test('the stored card as a JPEG, byte for byte, cached an hour', async () => {
  const res = await card(SHARE, 'sketch');
  expect(res.statusCode).toBe(200);
  expect(res.isBase64Encoded).toBe(true);
  expect(Buffer.from(res.body, 'base64')).toEqual(CARD);
  expect(res.headers).toEqual({
    ...API_SECURITY_HEADERS,
    'content-type': 'image/jpeg',
    'cache-control': 'public, max-age=3600',
  });
});

test('a style without a card: 404; a style not in the catalogue is not even looked for', async () => {
  expect(failure(await card(SHARE, 'comic'))).toEqual(notFound);
  expect(s3.commandCalls(GetObjectCommand)).toHaveLength(1);
  for (const style of ['claymation', '../../uploads/x', 'sketch.jpg'])
    expect(failure(await card(SHARE, style))).toEqual(notFound);
  expect(s3.commandCalls(GetObjectCommand)).toHaveLength(1);
});

test("the photo's hash, the order's id, an unknown or deleted share: 404, no file read", async () => {
  for (const id of [A, ORDER, 'A'.repeat(22)]) expect(failure(await card(id, 'sketch'))).toEqual(notFound);
  // A deleted order's share rows are gone: its card is a 404 whatever the bucket still holds.
  ddb.on(GetCommand, { TableName: 'shares' }).resolves({});
  expect(failure(await card(SHARE, 'sketch'))).toEqual(notFound);
  expect(s3.calls()).toHaveLength(0);
});
