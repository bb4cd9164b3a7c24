import {
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { headObject, readObject } from '../../lambdas/lib/media';

/**
 * A missing object under a grant that lists only by prefix (lib/storage.ts grantMedia): S3 answers its GET or HEAD
 * 403, as it does a refusal, and the one-key listing the grant allows tells them apart.
 */
describe('a missing media object when the role may not list the whole bucket', () => {
  const saved = { ...process.env };
  const s3 = mockClient(S3Client);
  const denied = () =>
    new S3ServiceException({ name: 'AccessDenied', $fault: 'client', $metadata: { httpStatusCode: 403 } });
  const key = 'previews/abc/anime.png';

  beforeEach(() => {
    s3.reset();
    Object.assign(process.env, { MEDIA_BUCKET: 'media', AWS_REGION: 'us-east-1' });
    s3.on(HeadObjectCommand).rejects(denied());
    s3.on(GetObjectCommand).rejects(denied());
  });
  afterAll(() => {
    process.env = saved;
  });

  test('403 and the key is not listed: missing, as a 404 would say', async () => {
    // A longer key under it may exist; only the exact key counts.
    s3.on(ListObjectsV2Command).resolves({ Contents: [{ Key: `${key}.tmp` }] });
    expect(await headObject(key)).toBeNull();
    expect(await readObject(key)).toBeNull();
    expect(s3.commandCalls(ListObjectsV2Command)[0].args[0].input).toEqual({
      Bucket: 'media',
      Prefix: key,
      MaxKeys: 1,
    });
  });

  test('403 and the key is listed: a refusal, thrown, never taken for a missing object', async () => {
    s3.on(ListObjectsV2Command).resolves({ Contents: [{ Key: key }] });
    await expect(headObject(key)).rejects.toThrow(S3ServiceException);
    await expect(readObject(key)).rejects.toThrow(S3ServiceException);
  });

  test('403 on the listing too: thrown', async () => {
    s3.on(ListObjectsV2Command).rejects(denied());
    await expect(headObject(key)).rejects.toThrow(S3ServiceException);
  });

  test('404 needs no listing', async () => {
    s3.on(HeadObjectCommand).rejects(
      new S3ServiceException({ name: 'NotFound', $fault: 'client', $metadata: { httpStatusCode: 404 } }),
    );
    expect(await headObject(key)).toBeNull();
    expect(s3.commandCalls(ListObjectsV2Command)).toHaveLength(0);
  });
});
