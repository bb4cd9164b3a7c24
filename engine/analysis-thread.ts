/**
 * The neural analysis runs in threads of its own. tfjs-wasm grows its WebAssembly memory while it runs, and growing
 * detaches the memory's old ArrayBuffer; the first detach in a V8 isolate switches every typed-array access in
 * that isolate to a slower, checked path for the rest of its life (measured: each style 25-50 % slower after one
 * analysis in the same thread). In their own threads, the models leave the threads that render styles untouched.
 *
 * With two or more cores, the faces (detector on the detail image and its tiles, mesh, iris) and the people (person
 * mask, MoveNet) run at once in two threads. With one core, one thread does both in turn. If a thread cannot start
 * or dies, its part runs in the calling thread: same result, slower styles after.
 *
 * The faces thread also describes faces with FaceRes for the paid renders' face keeping (face-keep.ts), for the
 * same reason: the style-rendering threads never run a model.
 */
import os from 'node:os';
import {
  type AnalysisOptions,
  type AnalysisPart,
  analysisImage,
  assembleAnalysis,
  DETAIL_LONG,
  type FaceSignal,
  type FacesPart,
  faceSignal,
  facesSettled,
  findFaces,
  findHeadFaces,
  findPerson,
  missedHeads,
  type PersonPart,
  withHeadFaces,
} from './analysis';
import { describeFaces as describeHere } from './analysis/faceres';
import type { Head } from './analysis/persons';
import type { Analysis, FaceInfo } from './analysis/types';
import { EngineWorker, spawnEngineWorker, WorkerLostError } from './engine-worker';
import type { Image8 } from './raster';

/**
 * What an analysis thread is asked for: the faces of the detail image, the people of the analysis image, or the
 * FaceRes descriptors of face crops (face-compare.ts `faceCrop`).
 */
export type AnalysisRequest =
  | {
      id: number;
      part: AnalysisPart;
      data: Uint8Array;
      width: number;
      height: number;
      signal?: FaceSignal;
      thorough?: boolean;
    }
  | { id: number; part: 'heads'; data: Uint8Array; width: number; height: number; heads: Head[] }
  | { id: number; part: 'describe'; crops: Float32Array[] };
type Part = FacesPart | FaceInfo[] | PersonPart | Float32Array[];
type Thread = EngineWorker<AnalysisRequest, Part>;

/** [faces thread, mask thread]; the second only with spare cores. */
const threads: (Thread | undefined)[] = [undefined, undefined];
let nextId = 1;

function threadCount(): number {
  return os.availableParallelism() >= 2 ? 2 : 1;
}

/** What the analysis worker is started with: whether to warm up now, and which parts it will be asked for. */
export interface AnalysisWorkerData {
  warm: boolean;
  parts: AnalysisPart[];
}

function current(k: number, warm: boolean): Thread | undefined {
  const count = threadCount();
  if (k >= count) return undefined;
  const t = threads[k];
  if (t?.alive) return t;
  let w: ReturnType<typeof spawnEngineWorker>;
  const parts: AnalysisPart[] = count === 1 ? ['faces', 'person'] : k === 0 ? ['faces'] : ['person'];
  try {
    w = spawnEngineWorker('analysis-worker', { warm, parts } satisfies AnalysisWorkerData);
  } catch {
    w = undefined; // no worker support here
  }
  threads[k] = w && new EngineWorker<AnalysisRequest, Part>(w, 'analysis thread lost, analysing in the calling thread');
  return threads[k];
}

/** `req` in thread `t`, or `here()` if there is no thread or it dies holding the request (nothing is lost). */
function inThread<T>(t: Thread | undefined, req: AnalysisRequest, here: () => Promise<T>): Promise<T> {
  if (!t) return here();
  return (t.run(req) as Promise<T>).catch((err: unknown) =>
    err instanceof WorkerLostError ? here() : Promise.reject(err),
  );
}

/**
 * A compact copy of the image's pixels: a Buffer's view may sit in a larger pooled ArrayBuffer, and transferring it
 * would detach it here.
 */
function pixels(img: Image8): { data: Uint8Array; width: number; height: number } {
  return { data: new Uint8Array(img.data), width: img.width, height: img.height };
}

/**
 * One part in thread `t` (inThread). `signal`: the faces part's word to the people part (analysis/index.ts
 * FaceSignal), which waits for it only in a thread of its own.
 */
function part(
  t: Thread | undefined,
  which: 'faces',
  img: Image8,
  signal: FaceSignal,
  thorough: boolean,
): Promise<FacesPart>;
function part(t: Thread | undefined, which: 'person', img: Image8, signal: FaceSignal): Promise<PersonPart>;
function part(
  t: Thread | undefined,
  which: AnalysisPart,
  img: Image8,
  signal: FaceSignal,
  thorough = false,
): Promise<Part> {
  const here = () =>
    which === 'faces' ? findFaces(img, { signal, thorough }) : findPerson(img, { signal, wait: false });
  return inThread<Part>(t, { id: nextId++, part: which, ...pixels(img), signal, thorough }, here);
}

/**
 * The photo's analysis (people, faces) at the analysis size, computed in the analysis threads; `thorough` looks for
 * small faces everywhere (analysis/detect.ts), as a paid render needs.
 */
export async function analyzeImage(photo: Image8, opts: AnalysisOptions = {}): Promise<Analysis> {
  const detail = analysisImage(photo, DETAIL_LONG);
  const img = analysisImage(detail);
  const facesThread = current(0, false);
  const personThread = current(1, false);
  const signal = faceSignal();
  const people = personThread && part(personThread, 'person', img, signal);
  people?.catch(() => undefined); // observed below, after the faces
  const { faces, thorough } = await part(facesThread, 'faces', detail, signal, opts.thorough ?? false);
  const person = await (people ?? part(facesThread, 'person', img, signal));
  const heads = facesSettled(signal) ? [] : missedHeads(person.persons, faces, detail.width / img.width);
  const more = heads.length > 0 ? await headFaces(facesThread, detail, heads) : [];
  return assembleAnalysis(img, detail.width, withHeadFaces(faces, more), person, thorough);
}

/** findHeadFaces in thread `t` (inThread). */
function headFaces(t: Thread | undefined, img: Image8, heads: Head[]): Promise<FaceInfo[]> {
  return inThread(t, { id: nextId++, part: 'heads', ...pixels(img), heads }, () => findHeadFaces(img, heads));
}

/**
 * FaceRes descriptors of face crops, computed in the faces thread (here if it cannot start or dies). The first
 * call loads the model there (7 MB).
 */
export function describeFaces(crops: Float32Array[]): Promise<Float32Array[]> {
  if (crops.length === 0) return describeHere(crops);
  return inThread(current(0, false), { id: nextId++, part: 'describe', crops }, () => describeHere(crops));
}

/** Start the analysis threads, load their models and run them once now (a server starting up); resolves when done. */
export async function warmAnalysisThread(): Promise<void> {
  await Promise.all([0, 1].map((k) => current(k, true)?.awaitReady()));
}

/** Stop the analysis threads (tests, graceful shutdown). The next analysis starts new ones. */
export async function closeAnalysisThread(): Promise<void> {
  const ts = threads.splice(0, 2, undefined, undefined);
  await Promise.all(ts.map((t) => t?.close()));
}
