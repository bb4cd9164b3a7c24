import type * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Where the stand-ins listen: this machine only. */
export const LOCAL_HOST = '127.0.0.1';

/** An AWS service's error answer: its type (the exception name the SDK resolves), message and HTTP status. */
export class AwsError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** A started local service: its base URL and how to stop it. */
export interface Running {
  url: string;
  close(): Promise<void>;
}

/**
 * Listens on host:port (0: a free port) and answers the URL it is reached at (every interface is reached on this
 * machine's loopback) and how to close it.
 */
export async function serve(server: http.Server, host = LOCAL_HOST, port = 0): Promise<Running & { port: number }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${host === '0.0.0.0' ? LOCAL_HOST : host}:${bound}`,
    port: bound,
    close: () => closeServer(server),
  };
}

/** Stops a server, ending its open keep-alive connections too, so it never waits on an idle client. */
export const closeServer = (server: http.Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
