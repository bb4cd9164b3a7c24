import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { writeIf } from './aws';

/** A status change of one DynamoDB item (an order, a generation, a job), made only from the states it allows. */
export interface StatusUpdate {
  table: string;
  /** The item's key: one attribute, which must exist (a missing item is not created). */
  key: Record<string, string>;
  status: string;
  /**
   * The state it moves from (an order leaves 'created' once), or the states it never leaves (a late retry cannot
   * change SUCCESS back to STARTED).
   */
  when: { from: string } | { notFrom: readonly string[] };
  /** Attributes set to the time of the change (updated_at, expired_at, ...). */
  stamp: readonly string[];
  /** More attributes to write; undefined ones are left as they are. */
  set?: Record<string, unknown>;
  remove?: readonly string[];
}

/** Applies the change; false when the item is missing or not in a state it may change from. */
export function updateStatus(u: StatusUpdate): Promise<boolean> {
  const names: Record<string, string> = { '#s': 'status' };
  const values: Record<string, unknown> = { ':s': u.status, ':now': new Date().toISOString() };
  const set = ['#s = :s', ...u.stamp.map((a) => `${a} = :now`)];
  // Placeholders for every other name: 'error' is a DynamoDB reserved word.
  for (const [k, v] of Object.entries(u.set ?? {})) {
    if (v === undefined) continue;
    set.push(`#${k} = :v_${k}`);
    names[`#${k}`] = k;
    values[`:v_${k}`] = v;
  }
  for (const k of u.remove ?? []) names[`#${k}`] = k;
  const remove = u.remove?.length ? ` REMOVE ${u.remove.map((k) => `#${k}`).join(', ')}` : '';
  const from = 'from' in u.when ? [u.when.from] : u.when.notFrom;
  const states = from.map((state, n) => {
    values[`:from${n}`] = state;
    return `#s ${'from' in u.when ? '=' : '<>'} :from${n}`;
  });
  return writeIf(
    new UpdateCommand({
      TableName: u.table,
      Key: u.key,
      UpdateExpression: `SET ${set.join(', ')}${remove}`,
      ConditionExpression: [`attribute_exists(${Object.keys(u.key)[0]})`, ...states].join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}
