import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { TABLES, type TableName } from '../../domain/wiring';
import { settings } from './settings';

/**
 * What one UpdateItem does, attribute by attribute. Attributes are paths as DynamoDB writes them
 * (`items.<key>.status`); the builder gives every segment a name placeholder, so reserved words (status, count,
 * error, items) need no care, and every value a value placeholder.
 */
export interface ItemUpdate {
  /** Attributes set; undefined ones are left as they are. */
  set?: Record<string, unknown>;
  /** Attributes set only where absent: the first value is kept. */
  setIfMissing?: Record<string, unknown>;
  /** Numbers added (an absent attribute counts from 0), or members added to a set. */
  add?: Record<string, unknown>;
  remove?: readonly string[];
  /** A condition in DynamoDB's syntax, attribute paths in braces (`{status} <> :refunded`), values from `values`. */
  condition?: string;
  values?: Record<string, unknown>;
  returnValues?: 'UPDATED_NEW';
}

/** The UpdateItem of the item with partition key `id` in one of the app's tables. */
export function updateCommand(table: TableName, id: string, u: ItemUpdate): UpdateCommand {
  const names: Record<string, string> = {};
  const placeholders = new Map<string, string>();
  const path = (p: string) =>
    p
      .split('.')
      .map((segment) => {
        let ph = placeholders.get(segment);
        if (!ph) {
          ph = /^[A-Za-z_]\w*$/.test(segment) ? `#${segment}` : `#p${placeholders.size}`;
          placeholders.set(segment, ph);
          names[ph] = segment;
        }
        return ph;
      })
      .join('.');
  const values: Record<string, unknown> = { ...u.values };
  let valueCount = 0;
  const value = (v: unknown) => {
    const ph = `:v${valueCount++}`;
    values[ph] = v;
    return ph;
  };
  const defined = (attrs: Record<string, unknown> = {}) => Object.entries(attrs).filter(([, v]) => v !== undefined);

  const set = [
    ...defined(u.set).map(([a, v]) => `${path(a)} = ${value(v)}`),
    ...defined(u.setIfMissing).map(([a, v]) => `${path(a)} = if_not_exists(${path(a)}, ${value(v)})`),
  ];
  const add = defined(u.add).map(([a, v]) => `${path(a)} ${value(v)}`);
  const remove = (u.remove ?? []).map(path);
  const clauses: Array<[string, string[]]> = [
    ['SET', set],
    ['ADD', add],
    ['REMOVE', remove],
  ];
  const condition = u.condition?.replace(/\{([^}]+)\}/g, (_, p: string) => path(p));
  return new UpdateCommand({
    TableName: settings.table(table),
    Key: { [TABLES[table]]: id },
    UpdateExpression: clauses
      .filter(([, parts]) => parts.length > 0)
      .map(([verb, parts]) => `${verb} ${parts.join(', ')}`)
      .join(' '),
    ConditionExpression: condition,
    // DynamoDB refuses empty maps.
    ExpressionAttributeNames: Object.keys(names).length ? names : undefined,
    ExpressionAttributeValues: Object.keys(values).length ? values : undefined,
    ReturnValues: u.returnValues,
  });
}
