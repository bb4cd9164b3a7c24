import * as fs from 'node:fs';
import type * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { CreateTableCommand, DynamoDBClient, ResourceInUseException } from '@aws-sdk/client-dynamodb';
import { writeFileDurably } from './durable-file';
import type { LocalBucket, LocalTable } from './template';

/** In-process stand-ins for DynamoDB (dynalite), S3 (s3rver) and SES (aws-ses-v2-local), data under dataDir. */
export const LOCAL_HOST = '127.0.0.1';
/** s3rver verifies signatures made with exactly these credentials. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface Running {
  url: string;
  close(): Promise<void>;
}

const listen = (server: http.Server, port: number) =>
  new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, LOCAL_HOST, () => resolve((server.address() as AddressInfo).port));
  });
const closeServer = (server: http.Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections?.();
    server.close(() => resolve());
  });

export async function startDynamo(dataDir: string, tables: LocalTable[], port = 0): Promise<Running> {
  const dynalite = require('dynalite') as (opts: object) => http.Server;
  fs.mkdirSync(path.join(dataDir, 'dynamodb'), { recursive: true });
  const server = dynalite({
    path: path.join(dataDir, 'dynamodb'),
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
  });
  const url = `http://${LOCAL_HOST}:${await listen(server, port)}`;
  const client = new DynamoDBClient({ endpoint: url, region: 'us-east-1', credentials: S3RVER_CREDENTIALS });
  for (const table of tables) {
    try {
      await client.send(
        new CreateTableCommand({
          TableName: table.name,
          KeySchema: table.keySchema,
          AttributeDefinitions: table.attributeDefinitions,
          ...(table.globalSecondaryIndexes ? { GlobalSecondaryIndexes: table.globalSecondaryIndexes } : {}),
          BillingMode: 'PAY_PER_REQUEST',
        }),
      );
    } catch (err) {
      if (!(err instanceof ResourceInUseException)) throw err;
    }
  }
  client.destroy();
  return { url, close: () => closeServer(server) };
}

const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

function corsXml(
  rules: {
    AllowedMethods: string[];
    AllowedOrigins: string[];
    AllowedHeaders?: string[];
    ExposedHeaders?: string[];
    MaxAge?: number;
  }[],
): string {
  const rule = (r: (typeof rules)[number]) =>
    '<CORSRule>' +
    r.AllowedOrigins.map((o) => `<AllowedOrigin>${xmlEscape(o)}</AllowedOrigin>`).join('') +
    r.AllowedMethods.map((m) => `<AllowedMethod>${m}</AllowedMethod>`).join('') +
    (r.AllowedHeaders ?? []).map((h) => `<AllowedHeader>${xmlEscape(h)}</AllowedHeader>`).join('') +
    (r.ExposedHeaders ?? []).map((h) => `<ExposeHeader>${xmlEscape(h)}</ExposeHeader>`).join('') +
    (r.MaxAge ? `<MaxAgeSeconds>${r.MaxAge}</MaxAgeSeconds>` : '') +
    '</CORSRule>';
  return `<CORSConfiguration>${rules.map(rule).join('')}</CORSConfiguration>`;
}

/**
 * s3rver with the template's buckets. Their CORS rules come from the template too, with the CloudFront origin
 * replaced by the local app's origins, since locally the app server plays CloudFront.
 */
export async function startS3(
  dataDir: string,
  buckets: LocalBucket[],
  siteOrigins: string[],
  port = 0,
): Promise<Running> {
  const S3rver = require('s3rver') as new (opts: object) => { run(): Promise<AddressInfo>; close(): Promise<void> };
  fs.mkdirSync(path.join(dataDir, 's3'), { recursive: true });
  const server = new S3rver({
    port,
    address: LOCAL_HOST,
    directory: path.join(dataDir, 's3'),
    silent: true,
    configureBuckets: buckets.map((b) => ({
      name: b.name,
      configs: b.cors ? [corsXml(b.cors.map((rule) => ({ ...rule, AllowedOrigins: siteOrigins })))] : [],
    })),
  });
  const address = await server.run();
  return { url: `http://${LOCAL_HOST}:${address.port}`, close: () => server.close() };
}

interface SesStore {
  emails: unknown[];
  templates: Map<string, unknown>;
}
let sesFile: string | undefined;
let sesSaveWrapped = false;

/**
 * aws-ses-v2-local with its mail store kept in dataDir/ses/emails.json: SES keeps what it accepted, so an e-mail
 * sent before a crash is still in the mail viewer after a restart. The file is written durably before SendEmail
 * answers. (The package keeps one store per process; a runtime started in the same process loads the file over it.)
 */
export async function startSes(dataDir: string, port = 0): Promise<Running> {
  const start = (
    require('aws-ses-v2-local') as { default: (c: { host: string; port: number }) => Promise<http.Server> }
  ).default;
  const store = require('aws-ses-v2-local/dist/store') as {
    saveEmail: (email: unknown) => void;
    getStoreReadonly: () => SesStore;
  };
  const file = path.join(dataDir, 'ses', 'emails.json');
  store.getStoreReadonly().emails = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as unknown[]) : [];
  sesFile = file;
  if (!sesSaveWrapped) {
    const original = store.saveEmail;
    store.saveEmail = (email) => {
      original(email);
      if (sesFile) writeFileDurably(sesFile, JSON.stringify(store.getStoreReadonly().emails));
    };
    sesSaveWrapped = true;
  }
  if (port === 0) {
    // aws-ses-v2-local cannot report an ephemeral port, so pick a free one first.
    const net = await import('node:net');
    port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, LOCAL_HOST, () => {
        const p = (probe.address() as AddressInfo).port;
        probe.close(() => resolve(p));
      });
    });
  }
  const server = await start({ host: LOCAL_HOST, port });
  return { url: `http://${LOCAL_HOST}:${port}`, close: () => closeServer(server) };
}
