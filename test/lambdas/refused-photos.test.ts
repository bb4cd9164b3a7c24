import { createHash } from 'node:crypto';
import { DetectModerationLabelsCommand, RekognitionClient } from '@aws-sdk/client-rekognition';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { mediaKey } from '../../domain/wiring';
import { moderateImage } from '../../lambdas/lib/moderation';
import { pngHeader } from '../support/png-header';

/**
 * A photo moderation refuses is not kept: deleted when refused, and the refusal (a fact about the bytes, whose hash
 * was checked) stands without it, so a later run asks Rekognition nothing and deletes any copy stored since.
 */
const s3 = mockClient(S3Client);
const dynamo = mockClient(DynamoDBDocumentClient);
const rekognition = mockClient(RekognitionClient);
const bytes = pngHeader(1200, 900);
const hash = createHash('sha256').update(bytes).digest('hex');
let record: Record<string, unknown>;

beforeEach(() => {
  s3.reset();
  dynamo.reset();
  rekognition.reset();
  Object.assign(process.env, { MEDIA_BUCKET: 'media', IMAGES_TABLE: 'images', AWS_REGION: 'us-east-1' });
  record = { image_hash: hash, moderation: 'pending' };
  dynamo.on(GetCommand).callsFake(() => ({ Item: { ...record } }));
  dynamo.on(UpdateCommand).callsFake((input: UpdateCommand['input']) => {
    const values = input.ExpressionAttributeValues ?? {};
    if (values[':moderation']) record.moderation = values[':moderation'];
    return {};
  });
  s3.on(HeadObjectCommand).resolves({ ContentLength: bytes.length, ETag: '"e"' });
  s3.on(GetObjectCommand).resolves({
    ETag: '"e"',
    ContentLength: bytes.length,
    Body: { transformToByteArray: async () => bytes },
  } as never);
  s3.on(DeleteObjectCommand).resolves({});
  rekognition
    .on(DetectModerationLabelsCommand)
    .resolves({ ModerationLabels: [{ Name: 'Explicit', Confidence: 99, ParentName: '' }] });
});

const deletedKeys = () => s3.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input.Key);

test('a refused photo is deleted when it is refused', async () => {
  const outcome = await moderateImage(hash);
  expect(outcome.moderation).toBe('rejected');
  expect(rekognition.commandCalls(DetectModerationLabelsCommand)).toHaveLength(1);
  expect(deletedKeys()).toEqual([mediaKey.upload(hash)]);
});

test('a refusal stands without the photo: no second Rekognition call, any new copy deleted', async () => {
  record = { image_hash: hash, moderation: 'rejected', moderation_reasons: ['Explicit: 99.0%'] };
  s3.on(HeadObjectCommand).rejects(Object.assign(new Error('NotFound'), { name: 'NotFound' }));
  const outcome = await moderateImage(hash);
  expect(outcome).toEqual({ image_hash: hash, moderation: 'rejected', reasons: ['Explicit: 99.0%'], reused: true });
  expect(rekognition.commandCalls(DetectModerationLabelsCommand)).toHaveLength(0);
  expect(deletedKeys()).toEqual([mediaKey.upload(hash)]);
});

test('an allowed photo is kept', async () => {
  rekognition.on(DetectModerationLabelsCommand).resolves({ ModerationLabels: [] });
  expect((await moderateImage(hash)).moderation).toBe('allowed');
  expect(deletedKeys()).toEqual([]);
});
