import '../../support/task-env';
import { DetectModerationLabelsCommand, RekognitionClient } from '@aws-sdk/client-rekognition';
import { mockClient } from 'aws-sdk-client-mock';
import { ITEM_ERRORS, itemKey } from '../../../domain/orders';
import { mediaKey } from '../../../domain/wiring';
import type { ImageRecord } from '../../../lambdas/lib/images';
import { handler } from '../../../lambdas/tasks/order-prepare';
import { awsError, FakeTables } from '../../support/fake-dynamo';
import { FakeBucket } from '../../support/fake-s3';
import {
  BUCKET,
  ORDER_ID,
  paidOrder,
  photo,
  replaceUpload,
  storeAllowed,
  storedGeneration,
  storeOrder,
  storeUploaded,
} from '../../support/tasks';

/**
 * lambdas/tasks/order-prepare.ts, the order pipeline's first step: each paid photo's verdict is reused if it is
 * still bound to the stored object (one HEAD, no Rekognition call), made now if there is none; a photo changed or
 * refused fails its items at once (refunded later) and is not handed to the Map. A re-run hands out only what is
 * still pending.
 */
const tables = new FakeTables();
const bucket = new FakeBucket(BUCKET);
const rekognition = mockClient(RekognitionClient);
const image = (hash: string) => tables.get<ImageRecord>('images', hash)!;

let kept: Awaited<ReturnType<typeof photo>>;
let fresh: Awaited<ReturnType<typeof photo>>;
beforeAll(async () => {
  [kept, fresh] = await Promise.all([photo('#c08050'), photo('#5080c0')]);
});
beforeEach(() => {
  tables.reset();
  bucket.reset();
  rekognition.reset();
  rekognition.on(DetectModerationLabelsCommand).resolves({ ModerationLabels: [] });
});

test('bound verdicts are reused with no model call; every item is handed on; the generation is processing', async () => {
  storeAllowed(tables, bucket, kept);
  storeOrder(tables, paidOrder([kept.hash], ['comic', '3d'], { over: { status: 'pending' } }));
  expect(await handler({ order_id: ORDER_ID })).toEqual({
    allowed: [kept.hash],
    items: [
      { order_id: ORDER_ID, image_hash: kept.hash, style: 'comic' },
      { order_id: ORDER_ID, image_hash: kept.hash, style: '3d' },
    ],
  });
  expect(rekognition.commandCalls(DetectModerationLabelsCommand)).toHaveLength(0);
  expect(storedGeneration(tables).status).toBe('processing');
});

test('a photo without a verdict is verified and moderated now, its verdict bound to the object read', async () => {
  storeUploaded(tables, bucket, fresh);
  storeOrder(tables, paidOrder([fresh.hash], ['comic']));
  expect((await handler({ order_id: ORDER_ID })).allowed).toEqual([fresh.hash]);
  const [call] = rekognition.commandCalls(DetectModerationLabelsCommand);
  expect(call.args[0].input.Image).toEqual({ S3Object: { Bucket: BUCKET, Name: mediaKey.upload(fresh.hash) } });
  expect(image(fresh.hash)).toMatchObject({
    moderation: 'allowed',
    verified: true,
    object_etag: bucket.etag(mediaKey.upload(fresh.hash)),
    object_size: fresh.bytes.length,
  });
  // Run again: the verdict now stands, no second call.
  await handler({ order_id: ORDER_ID });
  expect(rekognition.commandCalls(DetectModerationLabelsCommand)).toHaveLength(1);
});

test('a photo changed since its verdict: deleted, invalid, its items failed as refused and not handed on', async () => {
  storeAllowed(tables, bucket, kept);
  storeAllowed(tables, bucket, fresh);
  replaceUpload(bucket, fresh, kept.bytes);
  storeOrder(tables, paidOrder([kept.hash, fresh.hash], ['comic', 'sketch']));
  const out = await handler({ order_id: ORDER_ID });
  expect(out.allowed).toEqual([kept.hash]);
  expect(out.items.map((i) => i.image_hash)).toEqual([kept.hash, kept.hash]);
  expect(bucket.has(mediaKey.upload(fresh.hash))).toBe(false);
  expect(image(fresh.hash).moderation).toBe('invalid');
  const g = storedGeneration(tables);
  for (const style of ['comic', 'sketch'])
    expect(g.items[itemKey(fresh.hash, style)]).toMatchObject({
      status: 'failed',
      error: ITEM_ERRORS.refused,
      error_detail: 'moderation invalid: The stored photo changed after it was checked; it was removed.',
    });
  expect(g.failed_count).toBe(2);
  expect(rekognition.commandCalls(DetectModerationLabelsCommand)).toHaveLength(0);
});

test('a photo Rekognition refuses now: its items fail as refused with the labels for the operator', async () => {
  storeUploaded(tables, bucket, fresh);
  storeOrder(tables, paidOrder([fresh.hash], ['comic']));
  rekognition.on(DetectModerationLabelsCommand).resolves({
    ModerationLabels: [{ Name: 'Graphic Violence', Confidence: 97.5, TaxonomyLevel: 2, ParentName: 'Violence' }],
  });
  expect(await handler({ order_id: ORDER_ID })).toEqual({ allowed: [], items: [] });
  expect(storedGeneration(tables).items[itemKey(fresh.hash, 'comic')]).toMatchObject({
    status: 'failed',
    error: ITEM_ERRORS.refused,
    error_detail: 'moderation rejected: Graphic Violence (Violence): 97.5%',
  });
  expect(image(fresh.hash)).toMatchObject({ moderation: 'rejected', moderation_category: 'violence' });
});

test('a re-run after a restart hands out only the items still pending, and counts nothing twice', async () => {
  storeAllowed(tables, bucket, kept);
  storeAllowed(tables, bucket, fresh);
  replaceUpload(bucket, fresh, kept.bytes);
  storeOrder(
    tables,
    paidOrder([kept.hash, fresh.hash], ['comic', 'sketch'], {
      items: { [itemKey(kept.hash, 'comic')]: { status: 'done' } },
    }),
  );
  await handler({ order_id: ORDER_ID });
  const again = await handler({ order_id: ORDER_ID });
  expect(again).toEqual({
    allowed: [kept.hash],
    items: [{ order_id: ORDER_ID, image_hash: kept.hash, style: 'sketch' }],
  });
  expect(storedGeneration(tables)).toMatchObject({ done_count: 1, failed_count: 2 });
});

test('Rekognition throttled: the error is thrown for the Retry, nothing is refused', async () => {
  storeUploaded(tables, bucket, fresh);
  storeOrder(tables, paidOrder([fresh.hash], ['comic']));
  rekognition.on(DetectModerationLabelsCommand).rejects(awsError('ThrottlingException', 'Rate exceeded'));
  await expect(handler({ order_id: ORDER_ID })).rejects.toMatchObject({ name: 'ThrottlingException' });
  expect(storedGeneration(tables).items[itemKey(fresh.hash, 'comic')].status).toBe('pending');
  expect(bucket.has(mediaKey.upload(fresh.hash))).toBe(true);
});

test('a generation that is gone: a plain error (the Catch closes the order)', async () => {
  await expect(handler({ order_id: ORDER_ID })).rejects.toThrow(`Generation ${ORDER_ID} not found`);
});
