import {
  createCheckout,
  GenerationGoneError,
  getGallery,
  getGeneration,
  getImage,
  getJobStatus,
  getModeration,
  getThumbnails,
  JobNotFoundError,
  previewSignup,
  putToStorage,
  registerUpload,
  startModeration,
  startThumbnails,
  storageErrorMessage,
  toDisplayUrl,
} from '../../frontend/src/lib/api';
import { detailFromBody, statusTextOf } from '../../frontend/src/lib/http';

type Reply = { status?: number; statusText?: string; body?: unknown; raw?: string };
let replies: Reply[] = [];
const calls: Array<{ url: string; init?: RequestInit }> = [];

beforeEach(() => {
  replies = [];
  calls.length = 0;
  global.fetch = jest.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init });
    const r = replies.shift() ?? {};
    const body = r.raw ?? (r.body === undefined ? '' : JSON.stringify(r.body));
    return new Response(r.status === 204 ? null : body, { status: r.status ?? 200, statusText: r.statusText ?? '' });
  }) as typeof fetch;
});

const reply = (...r: Reply[]) => replies.push(...r);

describe('upload', () => {
  it('registers the hash, type and size', async () => {
    reply({ body: { status: 'upload', url: { url: 'https://s3/put' } } });
    await expect(registerUpload('h1', 'image/png', 1234)).resolves.toEqual({
      status: 'upload',
      url: { url: 'https://s3/put' },
    });
    expect(calls[0].url).toBe('/api/upload-image');
    expect(JSON.parse(String(calls[0].init?.body))).toEqual({
      image_hash: 'h1',
      file_type: 'image/png',
      file_size: 1234,
    });
  });

  it('reports register failures with detail, else status text', async () => {
    reply({ status: 400, statusText: 'Bad Request', body: { detail: 'Unsupported file type' } });
    await expect(registerUpload('h', 'image/gif', 1)).rejects.toThrow('Failed to upload image: Unsupported file type');
    reply({ status: 502, statusText: 'Bad Gateway', raw: '<html>' });
    await expect(registerUpload('h', 'image/png', 1)).rejects.toThrow('Failed to upload image: Bad Gateway');
    // HTTP/2 has no status text: the standard phrase is used.
    reply({ status: 503, raw: '' });
    await expect(registerUpload('h', 'image/png', 1)).rejects.toThrow('Failed to upload image: Service Unavailable');
  });

  it('PUTs the raw file with the headers the URL signs: type, SHA-256 checksum, write-once', async () => {
    reply({ status: 200 });
    const blob = new Blob(['x'], { type: 'image/png' });
    const hash = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
    await putToStorage('https://s3/put', blob, 'image/png', hash);
    expect(calls[0].init?.method).toBe('PUT');
    expect(calls[0].init?.headers).toEqual({
      'Content-Type': 'image/png',
      'x-amz-checksum-sha256': Buffer.from(hash, 'hex').toString('base64'),
      'If-None-Match': '*',
    });
    expect(calls[0].init?.body).toBe(blob);
  });

  it('a 412 (already stored: the same photo from another tab) is not an error', async () => {
    reply({ status: 412, raw: '<Error><Code>PreconditionFailed</Code></Error>' });
    await expect(putToStorage('u', new Blob(['x']), 'image/png', 'ab')).resolves.toBeUndefined();
  });

  it('reports S3 XML errors by code and message, other bodies verbatim', async () => {
    reply({
      status: 403,
      statusText: 'Forbidden',
      raw: '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>',
    });
    await expect(putToStorage('u', new Blob(['x']), 'image/png', 'ab')).rejects.toThrow(
      'S3 upload failed: AccessDenied - Request has expired',
    );
    reply({ status: 500, statusText: 'Internal Server Error', raw: 'upstream timed out' });
    await expect(putToStorage('u', new Blob(['x']), 'image/png', 'ab')).rejects.toThrow(
      'Failed to upload image: Internal Server Error - upstream timed out',
    );
    expect(
      storageErrorMessage('Forbidden', '<Error><Code>SignatureDoesNotMatch</Code><Message>Bad sig</Message></Error>'),
    ).toBe('S3 upload failed: SignatureDoesNotMatch - Bad sig');
    expect(storageErrorMessage('Bad Request', '')).toBe('Failed to upload image: Bad Request - ');
  });
});

describe('moderation and thumbnails', () => {
  it('starts jobs and returns the job id', async () => {
    reply({ body: { job_id: 'j1' } }, { body: { job_id: 'j2' } });
    await expect(startModeration(['a', 'b'])).resolves.toBe('j1');
    expect(JSON.parse(String(calls[0].init?.body))).toEqual({ image_hashes: ['a', 'b'] });
    await expect(startThumbnails('a')).resolves.toBe('j2');
    expect(JSON.parse(String(calls[1].init?.body))).toEqual({ image_hash: 'a' });
  });

  it('reports start failures and missing job ids with the catalogue texts', async () => {
    reply({ status: 500, body: { detail: 'queue down' } }, { body: {} });
    await expect(startModeration(['a'])).rejects.toThrow('Failed to start moderation: queue down');
    await expect(startModeration(['a'])).rejects.toThrow('No job_id received from /process-moderation');
    reply({ status: 500, body: { detail: 'worker crashed' } }, { body: { job_id: '' } });
    await expect(startThumbnails('a')).rejects.toThrow('Failed to start thumbnail generation: worker crashed');
    await expect(startThumbnails('a')).rejects.toThrow('No job_id received from /process-thumbnail');
  });

  it('reads a job status given as a bare JSON string, asking the server to hold it until the job ends', async () => {
    reply({ body: 'PENDING' }, { body: 'SUCCESS' });
    await expect(getJobStatus('j1', 'moderation')).resolves.toBe('PENDING');
    await expect(getJobStatus('j1', 'moderation')).resolves.toBe('SUCCESS');
    expect(calls[0].url).toBe('/api/jobs/j1?wait=1');
  });

  it('distinguishes unknown jobs (404) from other failures', async () => {
    reply({ status: 404, body: { detail: 'nope' } }, { status: 404 }, { status: 500, body: { detail: 'db error' } });
    const notFound = getJobStatus('j9', 'moderation');
    await expect(notFound).rejects.toThrow('Job j9 not found.');
    await expect(notFound).rejects.toBeInstanceOf(JobNotFoundError);
    await expect(getJobStatus('t9', 'thumbnail')).rejects.toThrow('Thumbnail job t9 not found.');
    await expect(getJobStatus('j1', 'moderation')).rejects.toThrow('Failed to get job status: db error');
  });

  it('reports moderation and thumbnail read failures with the status text', async () => {
    reply({ status: 500, statusText: 'Internal Server Error' }, { status: 404, statusText: 'Not Found' });
    await expect(getModeration('a')).rejects.toThrow('Failed to get moderation result: Internal Server Error');
    await expect(getThumbnails('a')).rejects.toThrow('Failed to get thumbnails: Not Found');
  });

  it('rewrites internal storage host names for display only', () => {
    expect(toDisplayUrl('http://localstack:4566/bucket/t.png?sig=1', 'localhost')).toBe(
      'http://localhost:4566/bucket/t.png?sig=1',
    );
    expect(toDisplayUrl('https://bucket.s3.amazonaws.com/t.png', 'toonzap.example')).toBe(
      'https://bucket.s3.amazonaws.com/t.png',
    );
    expect(toDisplayUrl('http://localhost:4566/t.png', 'example.com')).toBe('http://localhost:4566/t.png');
    expect(toDisplayUrl('/thumbnails/3d.png', 'example.com')).toBe('/thumbnails/3d.png');
  });
});

describe('checkout and sign-up', () => {
  it('posts the order and returns the session', async () => {
    reply({ body: { session_id: 's', order_id: 'o', url: 'https://checkout' } });
    await expect(createCheckout('a@b.co', ['h'], ['3d'])).resolves.toEqual({
      session_id: 's',
      order_id: 'o',
      url: 'https://checkout',
    });
    expect(JSON.parse(String(calls[0].init?.body))).toEqual({ email: 'a@b.co', hashes: ['h'], styles: ['3d'] });
  });

  it('uses the server detail, else "HTTP error! status: {code}"', async () => {
    reply({ status: 400, body: { detail: 'Invalid e-mail' } }, { status: 500, raw: '' });
    await expect(createCheckout('a', [], [])).rejects.toThrow('Invalid e-mail');
    await expect(createCheckout('a', [], [])).rejects.toThrow('HTTP error! status: 500');
  });

  it('sign-up errors use the detail, else "HTTP error! Status: {code}"', async () => {
    reply(
      { status: 409, body: { detail: 'Already signed up' } },
      { status: 502, raw: 'bad gateway' },
      { status: 200, body: { ok: true } },
    );
    await expect(previewSignup('a@b.co', 'h')).rejects.toThrow('Already signed up');
    await expect(previewSignup('a@b.co', 'h')).rejects.toThrow('HTTP error! Status: 502');
    await expect(previewSignup('a@b.co', 'h')).resolves.toBeUndefined();
    expect(JSON.parse(String(calls[2].init?.body))).toEqual({ email: 'a@b.co', image_hash: 'h' });
  });
});

describe('generations and images', () => {
  it('reads a generation and reports failures by code', async () => {
    reply({ body: { status: 'processing', progress: 40 } }, { status: 503 });
    await expect(getGeneration('g1')).resolves.toEqual({ status: 'processing', progress: 40, images: [] });
    await expect(getGeneration('g1')).rejects.toThrow('HTTP error! status: 503');
  });

  it('a deleted order (410) keeps the spec message and carries what happened and when; a 410 without them is plain', async () => {
    const gone = {
      detail: 'The photos and images of this order were deleted at your request.',
      erased_at: '2025-05-12T14:03:00.000Z',
    };
    reply({ status: 410, body: gone }, { status: 410, body: { detail: 'Gone' } });
    const err = await getGeneration('g1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GenerationGoneError);
    expect([(err as GenerationGoneError).message, (err as GenerationGoneError).gone]).toEqual([
      'HTTP error! status: 410',
      gone,
    ]);
    const plain = await getGeneration('g1').catch((e: unknown) => e);
    expect([plain instanceof GenerationGoneError, (plain as Error).message]).toEqual([
      false,
      'HTTP error! status: 410',
    ]);
  });

  it('uses the page-specific 404 and fallback texts', async () => {
    reply({ status: 404 }, { status: 500 }, { status: 404 }, { status: 500 });
    await expect(getImage('h', 's')).rejects.toThrow('Image or style not found.');
    await expect(getImage('h', 's')).rejects.toThrow('Failed to load image.');
    await expect(getGallery('h')).rejects.toThrow('No images found for this hash.');
    await expect(getGallery('h')).rejects.toThrow('Failed to load images.');
    expect(calls.map((c) => c.url)).toEqual(['/api/image/h/s', '/api/image/h/s', '/api/image/h', '/api/image/h']);
  });
});

describe('http helpers', () => {
  it('reads detail from error bodies', () => {
    expect(detailFromBody('{"detail":"x"}')).toBe('x');
    expect(detailFromBody('{"detail":[{"msg":"field required"},{"msg":"bad"}]}')).toBe('field required; bad');
    expect(detailFromBody('{"message":"x"}')).toBeUndefined();
    expect(detailFromBody('not json')).toBeUndefined();
    expect(detailFromBody('')).toBeUndefined();
  });

  it('falls back to reason phrases when statusText is empty', () => {
    expect(statusTextOf({ status: 404, statusText: '' })).toBe('Not Found');
    expect(statusTextOf({ status: 404, statusText: 'Gone Fishing' })).toBe('Gone Fishing');
    expect(statusTextOf({ status: 599, statusText: '' })).toBe('HTTP 599');
  });
});
