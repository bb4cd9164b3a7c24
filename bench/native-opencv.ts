/** Native OpenCV, the engine's speed anchor: Debian's python3-opencv, one thread, run in a python3 child. */
import { spawnSync } from 'node:child_process';
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

/** Native OpenCV's classic cartoon on these RGB pixels, one thread (bench/opencv-cartoon.py), in a python3 child. */
export function nativeCartoon(
  root: string,
  rgb: Uint8Array,
  width: number,
  height: number,
  warmup: number,
  runs: number,
): NativeRun {
  const dir = mkdtempSync(path.join(tmpdir(), 'toonzap-opencv-'));
  try {
    const file = path.join(dir, 'rgb.raw');
    writeFileSync(file, rgb);
    const script = path.join(root, 'bench/opencv-cartoon.py');
    const args = [script, file, String(width), String(height), String(warmup), String(runs)];
    // one thread also for the BLAS/OpenMP pools numpy or OpenCV might start
    const env = { ...process.env, OMP_NUM_THREADS: '1', OPENBLAS_NUM_THREADS: '1' };
    const child = spawnSync(PYTHON, args, { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'inherit'] });
    if (child.status !== 0) throw new Error(`native OpenCV cartoon failed (exit ${child.status})`);
    return JSON.parse(child.stdout.trim().split('\n').pop() as string) as NativeRun;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
