import { hexToBase64, sha256Hex, toHex } from '../../frontend/src/lib/hash';
import { uploadAll, uploadOne } from '../../frontend/src/lib/upload';

describe('hashing', () => {
  it('is SHA-256 hex of the contents', async () => {
    const hex = await sha256Hex(new TextEncoder().encode('abc'));
    expect(hex).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(toHex(new Uint8Array([0, 15, 255]))).toBe('000fff');
    expect(hexToBase64(hex)).toBe(Buffer.from(hex, 'hex').toString('base64'));
  });
});

describe('uploadOne', () => {
  afterEach(() => jest.restoreAllMocks());

  it('registers and PUTs only when asked to upload', async () => {
    const calls: string[] = [];
    global.fetch = jest.fn(async (url: string | URL | Request, init?: RequestInit) => {
      calls.push(`${init?.method ?? 'GET'} ${String(url)}`);
      if (String(url) === '/api/upload-image') {
        const { image_hash } = JSON.parse(String(init?.body));
        return Response.json(
          image_hash.startsWith('ba78') ? { status: 'exists' } : { status: 'upload', url: { url: 'https://s3/put' } },
        );
      }
      return new Response('', { status: 200 });
    }) as typeof fetch;

    await expect(uploadOne({ file: new Blob(['abc']), type: 'image/png' })).resolves.toMatch(/^ba7816bf/);
    expect(calls).toEqual(['POST /api/upload-image']);
    calls.length = 0;
    await uploadOne({ file: new Blob(['other']), type: 'image/png' });
    expect(calls).toEqual(['POST /api/upload-image', 'PUT https://s3/put']);
    // The registration carries the size the URL will sign.
    const bodies = (global.fetch as jest.Mock).mock.calls
      .filter(([url]) => String(url) === '/api/upload-image')
      .map(([, init]) => JSON.parse(String(init.body)));
    expect(bodies.map((b) => b.file_size)).toEqual([3, 5]);
  });

  it('a photo restored after a reload (hash only, bytes already stored) makes no request', async () => {
    const fetchMock = jest.fn(async () => Promise.reject(new Error('no request expected')));
    global.fetch = fetchMock as unknown as typeof fetch;
    expect(await uploadOne({ hash: 'ab'.repeat(32) })).toBe('ab'.repeat(32));
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('uploadAll', () => {
  const items = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ file: new Blob([String(i)]), type: 'image/jpeg' }));

  it('returns hashes in input order and reports progress', async () => {
    const progress: number[] = [];
    const upload = jest.fn(async (item: { file: Blob }) => {
      const text = await item.file.text();
      await new Promise((r) => setTimeout(r, 10 - Number(text)));
      return `h${text}`;
    });
    const hashes = await uploadAll(items(6), (d) => progress.push(d), upload, 3);
    expect(hashes).toEqual(['h0', 'h1', 'h2', 'h3', 'h4', 'h5']);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('aborts the batch on the first failure', async () => {
    let started = 0;
    const upload = jest.fn(async (item: { file: Blob }) => {
      started++;
      if ((await item.file.text()) === '1') throw new Error('Failed to upload image: Forbidden');
      return 'ok';
    });
    await expect(uploadAll(items(10), () => {}, upload, 2)).rejects.toThrow('Failed to upload image: Forbidden');
    await new Promise((r) => setTimeout(r, 5));
    expect(started).toBeLessThan(10);
  });

  it('the first photo that needs the server goes alone, so the others carry the owner secret it brings', async () => {
    const log: string[] = [];
    const upload = jest.fn(async (item: { file: Blob } | { hash: string }) => {
      const name = 'hash' in item ? item.hash : await item.file.text();
      log.push(`start ${name}`);
      await new Promise((r) => setTimeout(r, 5));
      log.push(`end ${name}`);
      return name;
    });
    const restored = { hash: 'r' };
    const hashes = await uploadAll([restored, ...items(3)], () => {}, upload, 4);
    expect(hashes).toEqual(['r', '0', '1', '2']);
    // Nothing else starts before the first file's registration has ended.
    expect(log.slice(0, 2)).toEqual(['start 0', 'end 0']);
  });
});
