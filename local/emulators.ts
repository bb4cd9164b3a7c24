import * as fs from 'node:fs';
import type * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { CreateTableCommand, DynamoDBClient, ResourceInUseException } from '@aws-sdk/client-dynamodb';
import { escapeHtml } from '../domain/html';
import { writeFileDurably } from './durable-file';
import { closeServer, LOCAL_HOST, type Running, serve } from './serve';
import type { LocalBucket, LocalTable } from './template';

// In-process stand-ins for DynamoDB (dynalite), S3 (s3rver) and SES (aws-ses-v2-local), data under dataDir.

/** s3rver verifies signatures made with exactly these credentials. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export async function startDynamo(dataDir: string, tables: LocalTable[]): Promise<Running> {
  const dynalite = require('dynalite') as (opts: object) => http.Server;
  fs.mkdirSync(path.join(dataDir, 'dynamodb'), { recursive: true });
  const server = dynalite({
    path: path.join(dataDir, 'dynamodb'),
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
  });
  const running = await serve(server);
  const client = new DynamoDBClient({ endpoint: running.url, region: 'us-east-1', credentials: S3RVER_CREDENTIALS });
  for (const table of tables) {
    try {
      await client.send(
        new CreateTableCommand({
          TableName: table.name,
          KeySchema: table.keySchema,
          AttributeDefinitions: table.attributeDefinitions,
          GlobalSecondaryIndexes: table.globalSecondaryIndexes,
          BillingMode: 'PAY_PER_REQUEST',
        }),
      );
    } catch (err) {
      if (!(err instanceof ResourceInUseException)) throw err;
    }
  }
  client.destroy();
  return running;
}

/** The template's CORS rules (CloudFormation's CorsRules) as the XML s3rver takes. */
function corsXml(rules: LocalBucket['cors'] & object): string {
  const tags = (tag: string, values: string[] = []) => values.map((v) => `<${tag}>${escapeHtml(v)}</${tag}>`).join('');
  const rule = (r: (typeof rules)[number]) =>
    `<CORSRule>${tags('AllowedOrigin', r.AllowedOrigins)}${tags('AllowedMethod', r.AllowedMethods)}` +
    `${tags('AllowedHeader', r.AllowedHeaders)}${tags('ExposeHeader', r.ExposedHeaders)}` +
    `${tags('MaxAgeSeconds', r.MaxAge ? [String(r.MaxAge)] : [])}</CORSRule>`;
  return `<CORSConfiguration>${rules.map(rule).join('')}</CORSConfiguration>`;
}

/**
 * s3rver with the template's buckets. Their CORS rules come from the template too, with the CloudFront origin
 * replaced by the local app's origins, since locally the app server plays CloudFront.
 */
export async function startS3(dataDir: string, buckets: LocalBucket[], siteOrigins: string[]): Promise<Running> {
  const S3rver = require('s3rver') as new (opts: object) => { run(): Promise<AddressInfo>; close(): Promise<void> };
  fs.mkdirSync(path.join(dataDir, 's3'), { recursive: true });
  const server = new S3rver({
    port: 0,
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
    getStoreReadonly: () => { emails: unknown[] };
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
  const server = await start({ host: LOCAL_HOST, port });
  // A fixed port as asked (the package reports no failure to take it, and has no address then); 0: the one it got.
  return {
    url: `http://${LOCAL_HOST}:${port || (server.address() as AddressInfo).port}`,
    close: () => closeServer(server),
  };
}
