import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, writeIf } from '../../lambdas/lib/aws';
import { capUsed, giveBack, takeCap } from '../../lambdas/lib/caps';
import { updateCommand } from '../../lambdas/lib/item-update';
import { S3RVER_CREDENTIALS, startDynamo } from '../../local/emulators';
import type { Running } from '../../local/serve';

/** lambdas/lib/item-update.ts against dynalite (the local DynamoDB): the expressions it builds, as DynamoDB runs them. */
describe('updateCommand', () => {
  let dynamo: Running;
  const saved = { ...process.env };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-item-update-'));
  const table = (logicalId: string, name: string, key: string) => ({
    logicalId,
    name,
    keySchema: [{ AttributeName: key, KeyType: 'HASH' as const }],
    attributeDefinitions: [{ AttributeName: key, AttributeType: 'S' as const }],
  });

  beforeAll(async () => {
    dynamo = await startDynamo(dataDir, [
      table('Generations', 'generations', 'generation_id'),
      table('Counters', 'counters', 'counter_id'),
    ]);
    Object.assign(process.env, {
      GENERATIONS_TABLE: 'generations',
      COUNTERS_TABLE: 'counters',
      GENERATIVE_PREVIEWS_PER_DAY: '2',
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.url,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    });
  });
  afterAll(async () => {
    process.env = saved;
    await dynamo?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const get = async (id: string) =>
    (await ddb().send(new GetCommand({ TableName: 'generations', Key: { generation_id: id } }))).Item;

  test('names every path segment and value: reserved words and item keys need no care', () => {
    const cmd = updateCommand('generations', 'g1', {
      set: { 'items.abc:toon.status': 'done', updated_at: 'now', skipped: undefined },
      setIfMissing: { created_at: 'then' },
      add: { count: 1 },
      remove: ['error'],
      condition: '{items.abc:toon.status} = :pending',
      values: { ':pending': 'pending' },
    });
    expect(cmd.input).toEqual({
      TableName: 'generations',
      Key: { generation_id: 'g1' },
      UpdateExpression:
        'SET #items.#p1.#status = :v0, #updated_at = :v1, #created_at = if_not_exists(#created_at, :v2) ADD #count :v3 REMOVE #error',
      ConditionExpression: '#items.#p1.#status = :pending',
      ExpressionAttributeNames: {
        '#items': 'items',
        '#p1': 'abc:toon',
        '#status': 'status',
        '#updated_at': 'updated_at',
        '#created_at': 'created_at',
        '#count': 'count',
        '#error': 'error',
      },
      ExpressionAttributeValues: { ':pending': 'pending', ':v0': 'done', ':v1': 'now', ':v2': 'then', ':v3': 1 },
    });
  });

  test('a plain update sends no empty name or value map (DynamoDB refuses them)', () => {
    const { input } = updateCommand('generations', 'g1', { remove: ['email'], condition: 'attribute_exists(email)' });
    expect(input.ExpressionAttributeValues).toBeUndefined();
    expect(Object.keys(input.ExpressionAttributeNames ?? {})).toEqual(['#email']);
  });

  test('runs as built: nested paths, first value kept, counters, conditions that fail', async () => {
    const key = 'h1:anime';
    await ddb().send(
      new PutCommand({
        TableName: 'generations',
        Item: { generation_id: 'g2', items: { [key]: { status: 'pending' } }, done_count: 0, error: 'old' },
      }),
    );
    const finish = (status: string) =>
      writeIf(
        updateCommand('generations', 'g2', {
          set: { [`items.${key}.status`]: status },
          setIfMissing: { first_at: status },
          add: { done_count: 1 },
          remove: ['error'],
          condition: `{items.${key}.status} = :pending`,
          values: { ':pending': 'pending' },
        }),
      );
    expect(await finish('done')).toBe(true);
    expect(await finish('failed')).toBe(false); // no longer pending: nothing changes
    expect(await get('g2')).toEqual({
      generation_id: 'g2',
      items: { [key]: { status: 'done' } },
      done_count: 1,
      first_at: 'done',
    });
  });

  test("the preview budget: taken up to the day's limit, given back never below zero", async () => {
    const first = await takeCap('generativePreviews');
    const second = await takeCap('generativePreviews');
    expect([first.ok, second.ok]).toEqual([true, true]);
    expect((await takeCap('generativePreviews')).ok).toBe(false);
    expect(await capUsed('generativePreviews', 'day')).toBe(2);
    if (!first.ok || !second.ok) throw new Error('taken above');
    await giveBack(first);
    await giveBack(second);
    await giveBack(second);
    expect(await capUsed('generativePreviews', 'day')).toBe(0);
    expect(await capUsed('generativePreviews', 'hour')).toBe(0);
  });
});
