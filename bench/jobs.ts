/**
 * Style-step latency on the local runtime for a 12 MP photo, as the page sees it: the bench follows the page's own
 * calls and poll schedule (frontend/src/lib/polling.ts, StyleStep.tsx) from the moment the step opens (POST
 * process-moderation) until the previews show. Two figures: the first visitor, right after a fresh runtime says it
 * is ready (warming as `npm start` does), and a warm runtime (median of five more photos). Run: `npm run bench jobs`.
 * Targets (issue #24): every engine style's preview ≤ 2 s warm, ≤ 6 s for the first visitor; generative ones after.
 *
 * The local model quota is set so that no photo of the bench waits for a minute's budget (what is measured is the
 * work, not the account's quota).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type Analysis, analyzePhoto, renderAllThumbnails } from '../engine';
import { pollJobUntilSuccess, STYLE_STEP_QUICK_POLLS } from '../frontend/src/lib/polling';
import { classifyImage } from '../local/rekognition/nsfw-model';
import { type LocalRuntime, startLocalRuntime } from '../local/runtime';
import { bigPhoto } from '../test/fixtures/photos';
import { api } from '../test/support/runtime';
import { benchClient } from './client';

/** Milliseconds from the style step opening, by what the page has seen. */
export interface StyleStepTimes {
  /** Register and PUT of the photo (before the step opens; not in the others). */
  uploadMs: number;
  /** The moderation job's SUCCESS read by the page's poll. */
  verdictMs: number;
  /** Every engine style's preview listed by get-thumbnails: the tiles show them. */
  enginePreviewsMs: number;
  /** Every style's preview listed (the generative ones too), the thumbnail job's SUCCESS read. */
  allPreviewsMs: number;
}

/**
 * The work on the style step's path, each part timed alone in the warm runtime's process on the same photo: what the
 * page figures spend beyond it is S3, DynamoDB, Step Functions and the page's polls.
 */
export interface StepParts {
  /** The moderation job's hash check (SHA-256 of the bytes). */
  hashMs: number;
  /** The Rekognition stand-in's model: decode at 224 px and inference. */
  moderationModelMs: number;
  /** The engine's analysis: decode at the analysis size, faces and people. */
  analysisMs: number;
  /** The engine's preview batch with that analysis: decode at 256 px, every style, watermark, PNG. */
  stylesMs: number;
}

export interface JobsBenchResult {
  firstVisitor: StyleStepTimes;
  /** Median of WARM_ROUNDS photos. */
  warm: StyleStepTimes;
  /** Fastest and slowest warm round's engine previews (the VM's neighbours move single rounds by seconds). */
  warmEngineRange: [number, number];
  parts: StepParts;
  /** Fresh runtime: start → ready (what `npm start` waits for), and → the background warm-up done. */
  startMs: number;
  warmUpMs: number;
}

const WARM_ROUNDS = 5;

type Thumb = { style: { id: string }; image: string | null };

/** One photo through the style step, as the page does it. */
async function styleStep(runtime: LocalRuntime, bytes: Buffer): Promise<StyleStepTimes> {
  const client = api(runtime.url);
  const { call, upload } = benchClient(runtime.url);
  const u0 = performance.now();
  const hash = await upload(bytes);
  const t0 = performance.now();
  const uploadMs = t0 - u0;
  const since = () => performance.now() - t0;
  const quick = STYLE_STEP_QUICK_POLLS;
  const read = async (id: string) => (await client.get(`/api/jobs/${id}`)).body;
  const moderation = (await call('POST', '/api/process-moderation', { image_hashes: [hash] })).job_id;
  await pollJobUntilSuccess(() => read(moderation), { quick, log: () => {} });
  const verdictMs = since();
  if ((await call('GET', `/api/get-moderation/${hash}`)).moderation !== 'allowed') throw new Error('photo refused');
  const styles = (await call('GET', '/api/available-styles')).styles as { id: string; aiGenerated: boolean }[];
  const engine = styles.filter((s) => !s.aiGenerated).map((s) => s.id);
  let enginePreviewsMs = Number.NaN;
  const show = async () => {
    const list = (await call('GET', `/api/get-thumbnails/${hash}`)) as Thumb[];
    if (Number.isNaN(enginePreviewsMs) && engine.every((id) => list.some((t) => t.style.id === id && t.image)))
      enginePreviewsMs = since();
  };
  const [thumbnails] = await Promise.all([call('POST', '/api/process-thumbnail', { image_hash: hash }), show()]);
  await pollJobUntilSuccess(
    async () => {
      const status = await read(thumbnails.job_id);
      await show();
      return status;
    },
    { quick, log: () => {} },
  );
  return { uploadMs, verdictMs, enginePreviewsMs, allPreviewsMs: since() };
}

async function stepParts(bytes: Buffer): Promise<StepParts> {
  const time = async (work: () => unknown) => {
    const t0 = performance.now();
    await work();
    return performance.now() - t0;
  };
  const hashMs = await time(() => createHash('sha256').update(bytes).digest());
  const moderationModelMs = await time(() => classifyImage(bytes));
  let analysis: Analysis | undefined;
  const analysisMs = await time(async () => {
    analysis = await analyzePhoto(bytes);
  });
  const stylesMs = await time(() => renderAllThumbnails(bytes, { watermark: true, analysis }));
  return { hashMs, moderationModelMs, analysisMs, stylesMs };
}

/** A different photo of the same size each time (bytes after the JPEG's end): nothing is reused between rounds. */
const variant = (base: Buffer, n: number) => Buffer.concat([base, Buffer.from(`bench-${n}-${Date.now()}`)]);

function median(rounds: StyleStepTimes[]): StyleStepTimes {
  const mid = (k: keyof StyleStepTimes) => rounds.map((r) => r[k]).sort((a, b) => a - b)[rounds.length >> 1];
  return {
    uploadMs: mid('uploadMs'),
    verdictMs: mid('verdictMs'),
    enginePreviewsMs: mid('enginePreviewsMs'),
    allPreviewsMs: mid('allPreviewsMs'),
  };
}

export async function runJobsBench(): Promise<JobsBenchResult> {
  const base = await bigPhoto();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-bench-'));
  const s0 = performance.now();
  const runtime = await startLocalRuntime({ port: 0, dataDir, warm: true, bedrockRequestsPerMinute: 600 });
  const startMs = performance.now() - s0;
  try {
    const firstVisitor = await styleStep(runtime, variant(base, 0));
    await runtime.warmed();
    const warmUpMs = performance.now() - s0;
    await runtime.idle();
    const rounds: StyleStepTimes[] = [];
    for (let i = 1; i <= WARM_ROUNDS; i++) rounds.push(await styleStep(runtime, variant(base, i)));
    const engine = rounds.map((r) => r.enginePreviewsMs);
    return {
      firstVisitor,
      warm: median(rounds),
      warmEngineRange: [Math.min(...engine), Math.max(...engine)],
      parts: await stepParts(variant(base, WARM_ROUNDS + 1)),
      startMs,
      warmUpMs,
    };
  } finally {
    await runtime.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export function formatJobsBench(r: JobsBenchResult): string {
  const row = (name: string, t: StyleStepTimes) =>
    `  ${name.padEnd(14)} ${s(t.verdictMs).padStart(8)} ${s(t.enginePreviewsMs).padStart(15)} ${s(t.allPreviewsMs).padStart(12)} ${s(t.uploadMs).padStart(9)}`;
  return [
    `jobs (12 MP photo, style step as the page polls it; from the step opening):`,
    `  ${''.padEnd(14)} ${'verdict'.padStart(8)} ${'engine previews'.padStart(15)} ${'all previews'.padStart(12)} ${'(upload)'.padStart(9)}`,
    row('warm', r.warm),
    row('first visitor', r.firstVisitor),
    `  work on the path (warm, each part alone): hash check ${s(r.parts.hashMs)} + moderation model ${s(r.parts.moderationModelMs)}, beside engine analysis ${s(r.parts.analysisMs)} + every style ${s(r.parts.stylesMs)}; the rest is S3, DynamoDB, Step Functions and the page's polls`,
    `  engine previews: warm ${s(r.warm.enginePreviewsMs)} (median of ${WARM_ROUNDS}, ${s(r.warmEngineRange[0])}–${s(r.warmEngineRange[1])}; target ≤ 2 s), first visitor ${s(r.firstVisitor.enginePreviewsMs)} (target ≤ 6 s; runtime ready in ${s(r.startMs)}, warm-up done ${s(r.warmUpMs)} after start)`,
  ].join('\n');
}

if (require.main === module) {
  runJobsBench().then(
    (r) => {
      console.log(formatJobsBench(r));
      process.exit(0);
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
