/** Native OpenCV, the engine's speed anchor: Debian's python3-opencv, one thread, run in a python3 child. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Debian's own interpreter: python3-opencv installs into it, and a `python3` earlier on PATH (pyenv, a venv) may be
 * another that does not see it.
 */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

/** Is `import cv2` possible with that python3? */
const hasCv2 = () => spawnSync(PYTHON, ['-c', 'import cv2'], { stdio: 'ignore' }).status === 0;

/**
 * Makes sure native OpenCV is there: Debian's python3-opencv, installed with apt-get when missing (as root, or
 * through a password-less sudo; the package lists refreshed first if the first try fails). Throws when it cannot.
 */
export function ensureNativeOpenCv(): void {
  if (hasCv2()) return;
  const asRoot = process.getuid?.() === 0;
  const apt = (...args: string[]) => {
    const [cmd, argv] = asRoot ? ['apt-get', args] : ['sudo', ['-n', 'apt-get', ...args]];
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    return spawnSync(cmd, argv, { stdio: ['ignore', 'ignore', 'inherit'], env }).status === 0;
  };
  console.error('engine bench: native OpenCV missing, installing python3-opencv with apt-get ...');
  const install = () => apt('install', '-y', '--no-install-recommends', 'python3-opencv');
  if (!install()) {
    apt('update');
    install();
  }
  if (!hasCv2())
    throw new Error(
      'native OpenCV (Debian python3-opencv) is missing and could not be installed: apt-get install python3-opencv',
    );
}

export interface NativeRun {
  version: string;
  threads: number;
  wall_ms: number[];
  cpu_ms: number[];
}

/** Native OpenCV's cartoon kept running on these pixels: `runs(n)` times n more runs now (bench/opencv-cartoon.py). */
export interface NativeAnchor {
  version: string;
  threads: number;
  runs(n: number): Promise<NativeRun>;
  close(): void;
}

/** Starts the anchor on these RGB pixels, warmed up by `warmup` runs, one thread, in a python3 child. */
export async function startNativeCartoon(
  root: string,
  rgb: Uint8Array,
  width: number,
  height: number,
  warmup: number,
): Promise<NativeAnchor> {
  const dir = mkdtempSync(path.join(tmpdir(), 'toonzap-opencv-'));
  const file = path.join(dir, 'rgb.raw');
  writeFileSync(file, rgb);
  const script = path.join(root, 'bench/opencv-cartoon.py');
  const env = { ...process.env, OMP_NUM_THREADS: '1', OPENBLAS_NUM_THREADS: '1' };
  const child = spawn(PYTHON, [script, file, String(width), String(height), String(warmup), '0'], {
    env,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  // one JSON line per request, in order
  const waiting: ((run: NativeRun) => void)[] = [];
  let partial = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    partial += chunk;
    for (let nl = partial.indexOf('\n'); nl >= 0; nl = partial.indexOf('\n')) {
      const line = partial.slice(0, nl);
      partial = partial.slice(nl + 1);
      waiting.shift()?.(JSON.parse(line) as NativeRun);
    }
  });
  const failed = new Promise<never>((_, reject) =>
    child.on('exit', (code) => reject(new Error(`native OpenCV cartoon exited (${code})`))),
  );
  failed.catch(() => undefined);
  const next = () => Promise.race([new Promise<NativeRun>((resolve) => waiting.push(resolve)), failed]);
  const first = await next().catch((err: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  return {
    version: first.version,
    threads: first.threads,
    runs(n: number) {
      const answer = next();
      child.stdin.write(`${n}\n`);
      return answer;
    },
    close() {
      child.stdin.end();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
