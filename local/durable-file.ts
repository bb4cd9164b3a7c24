import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Replaces `file` with `data` so that a crash at any moment leaves either the old or the new content, and the new
 * content is on disk when this returns: a temp file is written and fsynced, renamed over the file, and the directory
 * is fsynced so the rename itself survives a power cut. Synchronous on purpose: callers answer only after it.
 */
export function writeFileDurably(file: string, data: string): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`;
  const fd = fs.openSync(tmp, 'w');
  try {
    fs.writeSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  const dirFd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(dirFd);
  } finally {
    fs.closeSync(dirFd);
  }
}
