import type * as http from 'node:http';

/**
 * Reads a request body of at most `maxBytes`. Returns null when it is larger: the rest is read and dropped (up to
 * four times the limit) so the caller can still answer 413 on a live connection instead of resetting it.
 * Shared by the engine's model server and the local AWS stand-ins, which all speak plain node:http.
 */
export async function readBody(req: http.IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  let tooLarge = Number(req.headers['content-length']) > maxBytes;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) tooLarge = true;
    if (tooLarge) {
      chunks.length = 0;
      if (size > 4 * maxBytes) break; // a flood: stop reading; the connection closes after the answer
      continue;
    }
    chunks.push(chunk as Buffer);
  }
  return tooLarge ? null : Buffer.concat(chunks);
}
