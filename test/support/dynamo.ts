import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TABLES, type TableName, tableEnvVar } from '../../domain/wiring';
import { S3RVER_CREDENTIALS, startDynamo } from '../../local/emulators';

/**
 * Some of the app's tables in dynalite (the local DynamoDB), named as the tables are, for handler tests: the
 * handlers' clients reach it through the environment, as in the local runtime. `close` stops it and restores the
 * environment.
 */
export async function startTables(names: TableName[]) {
  const saved = { ...process.env };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-tables-'));
  const dynamo = await startDynamo(
    dataDir,
    names.map((name) => ({
      logicalId: name,
      name,
      keySchema: [{ AttributeName: TABLES[name], KeyType: 'HASH' }],
      attributeDefinitions: [{ AttributeName: TABLES[name], AttributeType: 'S' }],
    })),
  );
  Object.assign(process.env, {
    ...Object.fromEntries(names.map((name) => [tableEnvVar(name), name])),
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.url,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
  });
  return {
    url: dynamo.url,
    async close() {
      process.env = saved;
      await dynamo.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
