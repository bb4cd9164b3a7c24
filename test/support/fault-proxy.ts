import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A proxy in front of an AWS endpoint of the local runtime that lets a test answer chosen requests itself (a fault,
 * a throttle, a filtered answer) and passes every other one through unchanged: the app under test is untouched,
 * only the network between it and the service misbehaves. `intercept` returns true when it has answered.
 */
export async function startFaultProxy(
  target: string,
  intercept: (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => boolean,
) {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (intercept(req, body, res)) return;
      const url = new URL(req.url ?? '/', target);
      const upstream = http.request(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      upstream.on('error', (err) => {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: err.message }));
      });
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
