import { createHash } from 'node:crypto';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { type AwsClientStub, mockClient } from 'aws-sdk-client-mock';

interface StoredObject {
  bytes: Buffer;
  etag: string;
  /** base64 SHA-256 where S3 keeps one: an upload signed with it (presignUpload), a copy asking for it. */
  checksumSha256?: string;
  contentType?: string;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('base64');

/**
 * The media bucket in memory, behind aws-sdk-client-mock's S3Client stub: HEAD, GET (ranges too), PUT, COPY and
 * DELETE as S3 answers them (ETag the MD5 of the bytes, 404 NotFound / NoSuchKey for a missing key, the SHA-256
 * checksum only where it was asked for and only to a HEAD with ChecksumMode ENABLED). Another bucket is refused.
 */
export class FakeBucket {
  readonly stub: AwsClientStub<S3Client> = mockClient(S3Client);
  private readonly objects = new Map<string, StoredObject>();

  constructor(readonly name: string) {
    this.reset();
  }

  reset(): void {
    this.objects.clear();
    this.stub.reset();
    this.stub.onAnyCommand().rejects(new Error('FakeBucket: command not supported'));
    this.stub.on(HeadObjectCommand).callsFake((input) => {
      const o = this.find(
        input.Bucket,
        input.Key,
        () => new NotFound({ message: 'Not Found', $metadata: { httpStatusCode: 404 } }),
      );
      return {
        ETag: o.etag,
        ContentLength: o.bytes.length,
        ContentType: o.contentType,
        ...(input.ChecksumMode === 'ENABLED' && o.checksumSha256 ? { ChecksumSHA256: o.checksumSha256 } : {}),
      };
    });
    this.stub.on(GetObjectCommand).callsFake((input) => {
      const o = this.find(
        input.Bucket,
        input.Key,
        () => new NoSuchKey({ message: 'The specified key does not exist.', $metadata: { httpStatusCode: 404 } }),
      );
      const range = input.Range === undefined ? null : /^bytes=(\d+)-(\d+)$/.exec(input.Range);
      if (input.Range !== undefined && !range) throw new Error(`FakeBucket: unsupported range ${input.Range}`);
      const body = range ? o.bytes.subarray(Number(range[1]), Number(range[2]) + 1) : o.bytes;
      return {
        ETag: o.etag,
        ContentLength: body.length,
        ContentType: o.contentType,
        Body: { transformToByteArray: async () => new Uint8Array(body), destroy: () => {} },
      } as never;
    });
    this.stub.on(PutObjectCommand).callsFake((input) => {
      this.check(input.Bucket);
      const body = input.Body;
      const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body as Uint8Array);
      if (input.ChecksumSHA256 && input.ChecksumSHA256 !== sha256(bytes))
        throw Object.assign(new Error('The SHA256 you specified did not match the calculated checksum.'), {
          name: 'BadDigest',
        });
      this.store(input.Key!, bytes, { checksum: !!input.ChecksumSHA256, contentType: input.ContentType });
      return { ETag: this.objects.get(input.Key!)!.etag };
    });
    this.stub.on(CopyObjectCommand).callsFake((input) => {
      const [bucket, ...key] = (input.CopySource ?? '').split('/');
      const from = this.find(bucket, key.join('/'), () => new NoSuchKey({ message: 'no such key', $metadata: {} }));
      this.check(input.Bucket);
      this.store(input.Key!, from.bytes, {
        checksum: input.ChecksumAlgorithm === 'SHA256',
        contentType: from.contentType,
      });
      return { CopyObjectResult: { ETag: this.objects.get(input.Key!)!.etag } };
    });
    this.stub.on(DeleteObjectCommand).callsFake((input) => {
      this.check(input.Bucket);
      this.objects.delete(input.Key!);
      return {};
    });
  }

  /** Stores bytes at `key`; `checksum`: with their SHA-256, as S3 keeps it for an upload that signed it. */
  put(key: string, bytes: Buffer, opts: { checksum?: boolean; contentType?: string } = {}): void {
    this.store(key, bytes, opts);
  }

  bytes(key: string): Buffer | undefined {
    return this.objects.get(key)?.bytes;
  }

  etag(key: string): string | undefined {
    return this.objects.get(key)?.etag;
  }

  has(key: string): boolean {
    return this.objects.has(key);
  }

  /** Keys stored under `prefix`, sorted. */
  keys(prefix = ''): string[] {
    return [...this.objects.keys()].filter((k) => k.startsWith(prefix)).sort();
  }

  private store(key: string, bytes: Buffer, opts: { checksum?: boolean; contentType?: string }) {
    this.objects.set(key, {
      bytes: Buffer.from(bytes),
      etag: `"${createHash('md5').update(bytes).digest('hex')}"`,
      checksumSha256: opts.checksum ? sha256(bytes) : undefined,
      contentType: opts.contentType,
    });
  }

  private check(bucket: string | undefined) {
    if (bucket !== this.name)
      throw Object.assign(new Error(`FakeBucket: no bucket ${bucket}`), { name: 'NoSuchBucket' });
  }

  private find(bucket: string | undefined, key: string | undefined, missing: () => Error): StoredObject {
    this.check(bucket);
    const o = key === undefined ? undefined : this.objects.get(key);
    if (!o) throw missing();
    return o;
  }
}
