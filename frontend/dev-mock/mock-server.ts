/**
 * Throwaway static server + API mock for looking at the built frontend without the real backend.
 *
 *   npm run build:frontend && npx tsx frontend/dev-mock/mock-server.ts   # http://localhost:4173
 *
 * Env: PORT (4173), MOCK_PAYMENT_MODE (simulated | stripe | prelaunch), MOCK_JOB_MS (2500: how long
 * moderation/thumbnail jobs stay PENDING), MOCK_BRAND (ToonZap).
 * Failure scenarios at run time: GET /__mock/scenario?set=name1,name2 (GET /__mock/scenario lists them).
 * Generation ids with fixed answers: gen-pending, gen-processing, gen-completed, gen-empty, gen-failed,
 * gen-failed-noerror, gen-unknown, gen-500; any other id (e.g. from checkout) progresses
 * pending -> processing -> completed over ~15 s. Image hash 'missing' answers 404.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const PORT = Number(process.env.PORT ?? 4173);
const DIST = path.resolve(__dirname, '..', 'dist');
const PHOTOS = path.resolve(__dirname, '..', '..', '..', 'shared', 'photos');
const JOB_MS = Number(process.env.MOCK_JOB_MS ?? 2500);
const BRAND = process.env.MOCK_BRAND ?? 'ToonZap';
let paymentMode = process.env.MOCK_PAYMENT_MODE ?? 'simulated';

const SCENARIOS = {
  'register-error': 'POST /api/upload-image answers 500 {"detail": "Storage quota exceeded"}',
  's3-error': 'PUT to storage answers 403 with S3 XML',
  's3-text-error': 'PUT to storage answers 500 with a plain-text body',
  'moderation-start-error': 'POST /api/process-moderation answers 500 with detail',
  'moderation-no-job': 'POST /api/process-moderation answers {} (no job_id)',
  'moderation-job-404': 'GET /api/jobs/{moderation job} answers 404',
  'moderation-reject': 'every image is rejected by moderation',
  'thumbnail-error': 'POST /api/process-thumbnail answers 500 with detail',
  'no-styles': 'GET /api/available-styles answers an empty list',
  'checkout-error': 'POST /api/checkout answers 400 {"detail": "Invalid e-mail domain"}',
  'checkout-500': 'POST /api/checkout answers 500 without a body',
  'signup-error': 'POST /api/preview-signup answers 409 {"detail": "This e-mail is already on the list."}',
  'slow-config': 'GET /api/config takes 4 s',
  'slow-upload': 'POST /api/upload-image takes 3 s',
} as const;
const active = new Set<string>();

const STYLES = [
  { id: '3d', name: 'Pixar 3D', description: 'Soft, rounded 3D animated-film look.', color: '#7c3aed' },
  { id: 'anime', name: 'Anime', description: 'Clean lines and cel-shaded colour.', color: '#db2777' },
  { id: 'comic', name: 'Comic', description: 'Bold ink outlines and flat, punchy colour.', color: '#ea580c' },
  { id: 'sketch', name: 'Sketch', description: 'Hand-drawn pencil look.', color: '#475569' },
  { id: 'watercolor', name: 'Watercolor', description: 'Soft washes and gentle edges.', color: '#0891b2' },
  { id: 'pop-art', name: 'Pop Art', description: 'High-contrast 1960s screen-print colour.', color: '#e11d48' },
  { id: 'pixel-art', name: 'Pixel Art', description: 'Retro, blocky and nostalgic.', color: '#16a34a' },
  { id: 'claymation', name: 'Claymation', description: 'Hand-made plasticine characters.', color: '#ca8a04' },
];

const stored = new Map<string, { type: string; body: Buffer }>();
const jobs = new Map<string, { kind: 'moderation' | 'thumbnail'; done: number }>();
const generations = new Map<string, { started: number; hashes: string[]; styles: string[] }>();

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
};

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const isBuf = Buffer.isBuffer(body);
  const payload = isBuf ? body : typeof body === 'string' && headers['Content-Type'] ? body : JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers });
  res.end(payload);
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function styleSvg(id: string): string {
  const s = STYLES.find((x) => x.id === id) ?? { name: id, color: '#6d28d9' };
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${s.color}"/><stop offset="1" stop-color="#f59e0b"/></linearGradient></defs><rect width="400" height="400" fill="url(#g)"/><circle cx="200" cy="165" r="80" fill="#fff" opacity=".85"/><rect x="95" y="255" width="210" height="110" rx="55" fill="#fff" opacity=".85"/><text x="200" y="385" font-family="system-ui" font-size="30" font-weight="700" text-anchor="middle" fill="#fff">${s.name}</text></svg>`;
}

const SAMPLE_PHOTOS = ['astronaut.png', 'chelsea.png', 'coffee.png', 'motorcycle_left.png', 'rocket.jpg'];
function photo(i: number): string | null {
  const f = path.join(PHOTOS, SAMPLE_PHOTOS[i % SAMPLE_PHOTOS.length]);
  return fs.existsSync(f) ? f : null;
}

function generatedImages(hashes: string[], styles: string[]) {
  return hashes.flatMap((hash) =>
    styles.map((styleId) => {
      const s = STYLES.find((x) => x.id === styleId);
      return {
        url: `/mock-img/${hash}/${styleId}`,
        styleName: s?.name ?? styleId,
        styleId,
        imageHash: hash,
        description: s?.description ?? '',
      };
    }),
  );
}

const H1 = createHash('sha256').update('mock-photo-1').digest('hex');
const H2 = createHash('sha256').update('mock-photo-2').digest('hex');

function generation(id: string) {
  switch (id) {
    case 'gen-pending':
      return { status: 'pending', images: [] };
    case 'gen-processing':
      return { status: 'processing', progress: 42, images: [] };
    case 'gen-completed':
      return { status: 'completed', progress: 100, images: generatedImages([H1, H2], ['3d', 'anime', 'watercolor']) };
    case 'gen-empty':
      return { status: 'completed', images: [] };
    case 'gen-failed':
      return { status: 'failed', error: 'The image generator is temporarily unavailable.', images: [] };
    case 'gen-failed-noerror':
      return { status: 'failed', images: [] };
    case 'gen-unknown':
      return { status: 'queued', images: [] };
  }
  const g = generations.get(id) ?? { started: Date.now(), hashes: [H1], styles: ['3d', 'anime'] };
  generations.set(id, g);
  const t = Date.now() - g.started;
  if (t < 5000) return { status: 'pending', images: [] };
  if (t < 15000) return { status: 'processing', progress: Math.round(((t - 5000) / 10000) * 100), images: [] };
  return { status: 'completed', progress: 100, images: generatedImages(g.hashes, g.styles) };
}

async function api(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
  const p = url.pathname;
  const m = (re: RegExp) => re.exec(p);
  const json = async () => JSON.parse((await readBody(req)).toString('utf8') || '{}');
  let r: RegExpExecArray | null;

  if (p === '/api/config') {
    if (active.has('slow-config')) await new Promise((ok) => setTimeout(ok, 4000));
    return send(res, 200, { brand: BRAND, paymentMode, publishableKey: paymentMode === 'stripe' ? 'pk_test_mock' : null });
  }
  if (p === '/api/status') return send(res, 200, { status: 'ok' });
  if (p === '/api/available-styles') {
    const styles = active.has('no-styles') ? [] : STYLES.map(({ id, name, description }) => ({ id, name, description, preview: `/thumbnails/${id}.png` }));
    return send(res, 200, { styles });
  }
  if (p === '/api/upload-image' && req.method === 'POST') {
    const { image_hash, file_type } = await json();
    if (active.has('slow-upload')) await new Promise((ok) => setTimeout(ok, 3000));
    if (active.has('register-error')) return send(res, 500, { detail: 'Storage quota exceeded' });
    if (!image_hash || !file_type) return send(res, 422, { detail: 'image_hash and file_type are required' });
    const forcePut = active.has('s3-error') || active.has('s3-text-error');
    if (stored.has(image_hash) && !forcePut) return send(res, 200, { status: 'exists' });
    return send(res, 200, { status: 'upload', url: { url: `http://${req.headers.host}/mock-s3/${image_hash}` } });
  }
  if (p === '/api/process-moderation' && req.method === 'POST') {
    await json();
    if (active.has('moderation-start-error')) return send(res, 500, { detail: 'Moderation service unavailable' });
    if (active.has('moderation-no-job')) return send(res, 200, {});
    const id = `mod-${randomUUID()}`;
    jobs.set(id, { kind: 'moderation', done: Date.now() + JOB_MS });
    return send(res, 200, { job_id: id });
  }
  if (p === '/api/process-thumbnail' && req.method === 'POST') {
    await json();
    if (active.has('thumbnail-error')) return send(res, 500, { detail: 'Thumbnail worker crashed' });
    const id = `thumb-${randomUUID()}`;
    jobs.set(id, { kind: 'thumbnail', done: Date.now() + JOB_MS });
    return send(res, 200, { job_id: id });
  }
  if ((r = m(/^\/api\/jobs\/([^/]+)$/))) {
    const job = jobs.get(decodeURIComponent(r[1]));
    if (!job || (job.kind === 'moderation' && active.has('moderation-job-404'))) return send(res, 404, { detail: 'Job not found' });
    return send(res, 200, Date.now() >= job.done ? 'SUCCESS' : 'PENDING');
  }
  if ((r = m(/^\/api\/get-moderation\/([^/]+)$/))) {
    return send(res, 200, { image_hash: r[1], moderation: active.has('moderation-reject') ? 'rejected' : 'allowed' });
  }
  if ((r = m(/^\/api\/get-thumbnails\/([^/]+)$/))) {
    return send(res, 200, STYLES.map((s) => ({ style: { id: s.id }, image: `http://localstack:${PORT}/mock-thumb/${s.id}.svg` })));
  }
  if (p === '/api/checkout' && req.method === 'POST') {
    const { email, hashes, styles } = await json();
    if (active.has('checkout-error')) return send(res, 400, { detail: 'Invalid e-mail domain' });
    if (active.has('checkout-500')) return send(res, 500, '', { 'Content-Type': 'text/plain' });
    if (paymentMode === 'prelaunch') return send(res, 409, { detail: 'Payments are not live yet' });
    if (!email || !hashes?.length || !styles?.length) return send(res, 422, { detail: 'email, hashes and styles are required' });
    const orderId = `order-${randomUUID().slice(0, 8)}`;
    generations.set(orderId, { started: Date.now(), hashes, styles });
    return send(res, 200, { session_id: `cs_mock_${orderId}`, order_id: orderId, url: `/status/${orderId}` });
  }
  if (p === '/api/preview-signup' && req.method === 'POST') {
    const { email } = await json();
    if (active.has('signup-error')) return send(res, 409, { detail: 'This e-mail is already on the list.' });
    return send(res, 200, { ok: true, email });
  }
  if ((r = m(/^\/api\/generation\/([^/]+)$/))) {
    const id = decodeURIComponent(r[1]);
    if (id === 'gen-500') return send(res, 500, { detail: 'boom' });
    return send(res, 200, generation(id));
  }
  if ((r = m(/^\/api\/image\/([^/]+)\/([^/]+)$/))) {
    const [hash, styleId] = [decodeURIComponent(r[1]), decodeURIComponent(r[2])];
    if (hash === 'error') return send(res, 500, { detail: 'boom' });
    const s = STYLES.find((x) => x.id === styleId);
    if (hash === 'missing' || !s) return send(res, 404, { detail: 'Not found' });
    return send(res, 200, generatedImages([hash], [styleId])[0]);
  }
  if ((r = m(/^\/api\/image\/([^/]+)$/))) {
    const hash = decodeURIComponent(r[1]);
    if (hash === 'missing') return send(res, 404, { detail: 'Not found' });
    if (hash === 'error') return send(res, 500, { detail: 'boom' });
    return send(res, 200, generatedImages([hash], STYLES.slice(0, 5).map((s) => s.id)));
  }
  return send(res, 404, { detail: 'Not Found' });
}

function serveFile(res: http.ServerResponse, file: string, cache = false) {
  res.writeHead(200, {
    'Content-Type': TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
    'Cache-Control': cache ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  fs.createReadStream(file).pipe(res);
}

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
    const p = decodeURIComponent(url.pathname);

    if (p === '/__mock/scenario') {
      const set = url.searchParams.get('set');
      if (set !== null) {
        active.clear();
        for (const s of set.split(',').filter(Boolean)) active.add(s);
      }
      const mode = url.searchParams.get('payment');
      if (mode) paymentMode = mode;
      return send(res, 200, { active: [...active], paymentMode, available: SCENARIOS });
    }
    if (p.startsWith('/api/')) return await api(req, res, url);

    if (p.startsWith('/mock-s3/')) {
      if (req.method === 'OPTIONS') return send(res, 204, '', { 'Content-Type': 'text/plain' });
      if (req.method !== 'PUT') return send(res, 405, { detail: 'PUT only' });
      const body = await readBody(req);
      if (active.has('s3-error')) {
        return send(res, 403, '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>', {
          'Content-Type': 'application/xml',
        });
      }
      if (active.has('s3-text-error')) return send(res, 500, 'upstream timed out', { 'Content-Type': 'text/plain' });
      stored.set(p.slice('/mock-s3/'.length), { type: String(req.headers['content-type'] ?? ''), body });
      return send(res, 200, '', { 'Content-Type': 'text/plain' });
    }
    if (p.startsWith('/mock-thumb/')) {
      return send(res, 200, styleSvg(path.basename(p, '.svg')), { 'Content-Type': 'image/svg+xml' });
    }
    if (p.startsWith('/mock-img/')) {
      const [, , hash, styleId] = p.split('/');
      const i = STYLES.findIndex((s) => s.id === styleId) + (hash === H2 ? 1 : 0);
      const f = photo(Math.max(0, i));
      return f ? serveFile(res, f) : send(res, 200, styleSvg(styleId), { 'Content-Type': 'image/svg+xml' });
    }

    const file = path.join(DIST, path.normalize(p).replace(/^(\.\.[/\\])+/, ''));
    if (file.startsWith(DIST) && fs.existsSync(file) && fs.statSync(file).isFile()) return serveFile(res, file, p.startsWith('/assets/'));
    if (p.startsWith('/thumbnails/')) {
      // Stand-ins until the real thumbnails are generated into frontend/public/thumbnails.
      const name = path.basename(p);
      if (name === 'input.jpg' && photo(0)) return serveFile(res, photo(0) as string);
      if (name === 'pixar.png') return send(res, 200, styleSvg('3d'), { 'Content-Type': 'image/svg+xml' });
      return send(res, 200, styleSvg(path.basename(name, path.extname(name))), { 'Content-Type': 'image/svg+xml' });
    }
    if (path.extname(p)) return send(res, 404, 'Not found', { 'Content-Type': 'text/plain' });
    return serveFile(res, path.join(DIST, 'index.html'));
  } catch (err) {
    console.error(err);
    if (!res.headersSent) send(res, 500, { detail: String(err) });
    else res.end();
  }
});

server.listen(PORT, () => {
  console.log(`Mock server on http://localhost:${PORT} (payment mode ${paymentMode}, dist ${DIST})`);
});
