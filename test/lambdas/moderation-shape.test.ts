import { createHash } from 'node:crypto';
import { DetectModerationLabelsCommand, RekognitionClient } from '@aws-sdk/client-rekognition';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { refusalReason } from '../../domain/moderation-policy';
import { moderateImage, uploadHeaderFits } from '../../lambdas/lib/moderation';
import { pngHeader } from '../support/png-header';

/**
 * A photo too long and narrow for the generative models (1:600, 256×156,250 px: at the pixel limit, over the 10 MB
 * limit nowhere) is refused from its header, before Rekognition; the visitor is told why.
 */
describe('moderation refuses shapes the models refuse', () => {
  const saved = { ...process.env };
  const s3 = mockClient(S3Client);
  const dynamo = mockClient(DynamoDBDocumentClient);
  const rekognition = mockClient(RekognitionClient);
  const updates: UpdateCommand['input'][] = [];

  function store(bytes: Buffer) {
    const hash = createHash('sha256').update(bytes).digest('hex');
    s3.on(HeadObjectCommand).resolves({ ContentLength: bytes.length, ETag: '"e"' });
    s3.on(GetObjectCommand).callsFake((input) => {
      const range = /^bytes=0-(\d+)$/.exec(input.Range ?? '');
      const body = range ? bytes.subarray(0, Number(range[1]) + 1) : bytes;
      return { ETag: '"e"', ContentLength: body.length, Body: { transformToByteArray: async () => body } };
    });
    return hash;
  }

  beforeEach(() => {
    s3.reset();
    dynamo.reset();
    rekognition.reset();
    updates.length = 0;
    Object.assign(process.env, { MEDIA_BUCKET: 'media', IMAGES_TABLE: 'images', AWS_REGION: 'us-east-1' });
    dynamo.on(GetCommand).callsFake((input) => ({ Item: { image_hash: input.Key.image_hash, moderation: 'pending' } }));
    dynamo.on(UpdateCommand).callsFake((input) => {
      updates.push(input);
      return {};
    });
    s3.on(DeleteObjectCommand).resolves({});
    rekognition.on(DetectModerationLabelsCommand).resolves({ ModerationLabels: [] });
  });
  afterAll(() => {
    process.env = saved;
  });

  test('a 1:600 photo is invalid, deleted, and never sent to Rekognition', async () => {
    const hash = store(pngHeader(256, 156_250));
    const outcome = await moderateImage(hash);
    expect(outcome.moderation).toBe('invalid');
    expect(outcome.reasons[0]).toMatch(/^This photo is too long and narrow \(256×156250 px\)/);
    expect(rekognition.commandCalls(DetectModerationLabelsCommand)).toHaveLength(0);
    expect(s3.commandCalls(DeleteObjectCommand)).toHaveLength(1);
    // Early previews are not started on it either.
    expect(await uploadHeaderFits(hash)).toBe(false);
    expect(refusalReason('invalid', null, { width: 256, height: 156_250 })).toBe(
      "is too long and narrow (256×156250 px): a photo's long side can be at most 2.5 times its short side",
    );
  });

  test('a 2.5:1 photo goes on to Rekognition', async () => {
    const hash = store(pngHeader(1000, 400));
    expect(await uploadHeaderFits(hash)).toBe(true);
    expect((await moderateImage(hash)).moderation).toBe('allowed');
    expect(rekognition.commandCalls(DetectModerationLabelsCommand)).toHaveLength(1);
  });
});
