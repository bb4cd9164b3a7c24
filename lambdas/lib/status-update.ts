import { TABLES, type TableName } from '../../domain/wiring';
import { writeIf } from './aws';
import { updateCommand } from './item-update';

/** A status change of one DynamoDB item (an order, a generation, a job), made only from the states it allows. */
export interface StatusUpdate {
  table: TableName;
  /** The item's partition key, which must exist (a missing item is not created). */
  id: string;
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
  const now = new Date().toISOString();
  const from = 'from' in u.when ? [u.when.from] : u.when.notFrom;
  const op = 'from' in u.when ? '=' : '<>';
  const states = from.map((_, n) => `{status} ${op} :from${n}`);
  return writeIf(
    updateCommand(u.table, u.id, {
      set: { status: u.status, ...Object.fromEntries(u.stamp.map((a) => [a, now])), ...u.set },
      remove: u.remove,
      condition: [`attribute_exists({${TABLES[u.table]}})`, ...states].join(' AND '),
      values: Object.fromEntries(from.map((state, n) => [`:from${n}`, state])),
    }),
  );
}
