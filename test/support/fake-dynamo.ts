import { isDeepStrictEqual } from 'node:util';
import {
  type AttributeValue,
  ConditionalCheckFailedException,
  DeleteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { type AwsClientStub, mockClient } from 'aws-sdk-client-mock';
import { TABLES, type TableName, tableEnvVar } from '../../domain/wiring';

/**
 * The app's DynamoDB tables in memory, behind aws-sdk-client-mock's DocumentClient stub: GetItem, PutItem,
 * UpdateItem, DeleteItem and BatchWriteItem run their expressions on the stored items as DynamoDB does, so a
 * handler's conditional writes really hold or fail (ConditionalCheckFailedException) and a second run of a task
 * sees what its first run wrote. The grammar is what the handlers send (lambdas/lib/item-update.ts builds every
 * update; conditions are comparisons, AND/OR/NOT, attribute_exists and attribute_not_exists); anything else is a
 * ValidationException, as are the mistakes DynamoDB refuses (a nested SET under a missing map, overlapping paths,
 * an unused or undefined name or value). Tables are named as `tableEnv` sets them: by their names in TABLES.
 * The plain client's item commands (Powertools idempotency sends them) reach the same tables, marshalled.
 */
export type Item = Record<string, unknown>;

/** The tables' environment variables, each naming its table by its TABLES name. */
export const tableEnv = Object.fromEntries(Object.keys(TABLES).map((t) => [tableEnvVar(t as TableName), t]));

export class FakeTables {
  readonly stub: AwsClientStub<DynamoDBDocumentClient> = mockClient(DynamoDBDocumentClient);
  readonly plain: AwsClientStub<DynamoDBClient> = mockClient(DynamoDBClient);
  private readonly data = new Map<string, Map<string, Item>>();
  private faults: { command: string; match: (input: Item) => boolean; error: Error }[] = [];

  constructor() {
    this.reset();
  }

  /** Empties every table and forgets the calls; call it in beforeEach. */
  reset(): void {
    this.data.clear();
    this.faults = [];
    this.stub.reset();
    this.stub.onAnyCommand().rejects(new Error('FakeTables: command not supported'));
    this.stub.on(GetCommand).callsFake((input) => this.run('Get', input, () => this.getItem(input)));
    this.stub.on(PutCommand).callsFake((input) => this.run('Put', input, () => this.putItem(input)));
    this.stub.on(UpdateCommand).callsFake((input) => this.run('Update', input, () => this.updateItem(input)));
    this.stub.on(DeleteCommand).callsFake((input) => this.run('Delete', input, () => this.deleteItem(input)));
    this.stub.on(BatchWriteCommand).callsFake((input) => this.run('BatchWrite', input, () => this.batchWrite(input)));
    this.plain.reset();
    this.plain.onAnyCommand().rejects(new Error('FakeTables: command not supported'));
    this.plain
      .on(GetItemCommand)
      .callsFake((input) => this.marshalled('Get', input, (i) => this.getItem(i as GetCommand['input'])));
    this.plain
      .on(PutItemCommand)
      .callsFake((input) => this.marshalled('Put', input, (i) => this.putItem(i as PutCommand['input'])));
    this.plain
      .on(UpdateItemCommand)
      .callsFake((input) => this.marshalled('Update', input, (i) => this.updateItem(i as UpdateCommand['input'])));
    this.plain
      .on(DeleteItemCommand)
      .callsFake((input) => this.marshalled('Delete', input, (i) => this.deleteItem(i as DeleteCommand['input'])));
  }

  /** A plain client's command: its attribute values unmarshalled in, the answer's marshalled out. */
  private async marshalled(command: string, input: Item, op: (input: Item) => Item): Promise<Item> {
    const values = (v: unknown) => (v === undefined ? undefined : unmarshall(v as Record<string, AttributeValue>));
    const plain: Item = { ...input };
    for (const field of ['Item', 'Key', 'ExpressionAttributeValues'])
      if (input[field] !== undefined) plain[field] = values(input[field]);
    try {
      const out = await this.run(command, plain, () => op(plain));
      const answer: Item = { ...out };
      for (const field of ['Item', 'Attributes'])
        if (out[field] !== undefined) answer[field] = marshall(out[field], { removeUndefinedValues: true });
      return answer;
    } catch (err) {
      // ReturnValuesOnConditionCheckFailure ALL_OLD: the item that failed the condition comes with the error.
      if (err instanceof ConditionalCheckFailedException && input.ReturnValuesOnConditionCheckFailure === 'ALL_OLD') {
        const old = this.rows(plain.TableName as string).get(
          keyOf(plain.TableName as string, (plain.Item ?? plain.Key) as Item),
        );
        if (old) err.Item = marshall(old, { removeUndefinedValues: true });
      }
      throw err;
    }
  }

  /** Stores an item as it is (a copy). */
  put(table: TableName, item: object): void {
    this.rows(table).set(keyOf(table, item as Item), structuredClone(item as Item));
  }

  /** A copy of the stored item, or undefined. */
  get<T = Item>(table: TableName, id: string): T | undefined {
    const item = this.rows(table).get(id);
    return item === undefined ? undefined : (structuredClone(item) as T);
  }

  /**
   * The next `command` whose input `match`es fails with `error` instead of running (nothing is written): a crash,
   * or a throttled table, between two writes of a task.
   */
  failNext(command: 'Get' | 'Put' | 'Update' | 'Delete', match: (input: Item) => boolean, error: Error): void {
    this.faults.push({ command, match, error });
  }

  private async run<T>(command: string, input: Item, op: () => T): Promise<T> {
    const fault = this.faults.findIndex((f) => f.command === command && f.match(input));
    if (fault >= 0) throw this.faults.splice(fault, 1)[0].error;
    return op();
  }

  private rows(table: string): Map<string, Item> {
    if (!(table in TABLES)) throw awsError('ResourceNotFoundException', `Requested resource not found: ${table}`);
    if (!this.data.has(table)) this.data.set(table, new Map());
    return this.data.get(table)!;
  }

  private getItem(input: GetCommand['input']) {
    if (input.ProjectionExpression !== undefined) throw validation('FakeTables: ProjectionExpression not supported');
    const table = input.TableName!;
    const item = this.rows(table).get(keyOf(table, input.Key!, true));
    return item === undefined ? {} : { Item: structuredClone(item) };
  }

  private putItem(input: PutCommand['input']) {
    const table = input.TableName!;
    const id = keyOf(table, input.Item!);
    const expr = new Expressions(input.ExpressionAttributeNames, input.ExpressionAttributeValues);
    const condition = input.ConditionExpression === undefined ? null : expr.condition(input.ConditionExpression);
    expr.checkAllUsed();
    const existing = this.rows(table).get(id);
    if (condition && !condition(existing ?? {})) throw conditionalFailed();
    this.rows(table).set(id, structuredClone(input.Item!));
    return {};
  }

  private deleteItem(input: DeleteCommand['input']) {
    const table = input.TableName!;
    const id = keyOf(table, input.Key!, true);
    const expr = new Expressions(input.ExpressionAttributeNames, input.ExpressionAttributeValues);
    const condition = input.ConditionExpression === undefined ? null : expr.condition(input.ConditionExpression);
    expr.checkAllUsed();
    if (condition && !condition(this.rows(table).get(id) ?? {})) throw conditionalFailed();
    this.rows(table).delete(id);
    return {};
  }

  private batchWrite(input: BatchWriteCommand['input']) {
    for (const [table, requests] of Object.entries(input.RequestItems ?? {})) {
      for (const r of requests) {
        if (r.PutRequest) this.rows(table).set(keyOf(table, r.PutRequest.Item!), structuredClone(r.PutRequest.Item!));
        else if (r.DeleteRequest) this.rows(table).delete(keyOf(table, r.DeleteRequest.Key!, true));
      }
    }
    return { UnprocessedItems: {} };
  }

  private updateItem(input: UpdateCommand['input']) {
    const table = input.TableName!;
    const id = keyOf(table, input.Key!, true);
    const expr = new Expressions(input.ExpressionAttributeNames, input.ExpressionAttributeValues);
    const actions = expr.update(input.UpdateExpression ?? '');
    const condition = input.ConditionExpression === undefined ? null : expr.condition(input.ConditionExpression);
    expr.checkAllUsed();
    const old = this.rows(table).get(id);
    if (condition && !condition(old ?? {})) throw conditionalFailed();
    const item = structuredClone(old ?? input.Key!);
    // Every operand is read from the item as it was before the update.
    const resolved = actions.map((a) => ({ ...a, value: a.value?.(old ?? {}) }));
    for (const a of resolved) {
      if (a.path.length === 1 && a.path[0] === TABLES[table as TableName])
        throw validation(`Cannot update attribute ${a.path[0]}. This attribute is part of the key`);
      const parent = resolvePath(item, a.path.slice(0, -1));
      if (!isMap(parent)) throw validation('The document path provided in the update expression is invalid for update');
      const last = a.path[a.path.length - 1];
      if (a.kind === 'REMOVE') delete parent[last];
      else if (a.kind === 'SET') {
        if (a.value === undefined)
          throw validation('The provided expression refers to an attribute that does not exist in the item');
        parent[last] = structuredClone(a.value);
      } else parent[last] = added(parent[last], a.value);
    }
    this.rows(table).set(id, item);
    if (input.ReturnValues === undefined || input.ReturnValues === 'NONE') return {};
    if (input.ReturnValues !== 'UPDATED_NEW') throw validation(`ReturnValues ${input.ReturnValues} not supported here`);
    const attributes: Item = {};
    for (const a of actions.filter((x) => x.kind !== 'REMOVE')) {
      const value = resolvePath(item, a.path);
      let at = attributes;
      for (const p of a.path.slice(0, -1)) {
        at[p] ??= {};
        at = at[p] as Item;
      }
      at[a.path[a.path.length - 1]] = structuredClone(value);
    }
    return { Attributes: attributes };
  }
}

function keyOf(table: string, item: Item, keyOnly = false): string {
  const key = TABLES[table as TableName];
  if (!key) throw awsError('ResourceNotFoundException', `Requested resource not found: ${table}`);
  const id = item[key];
  if (typeof id !== 'string' || id === '') throw validation(`The provided key element does not match the schema`);
  if (keyOnly && Object.keys(item).length !== 1) throw validation('The provided key element does not match the schema');
  return id;
}

function added(existing: unknown, value: unknown): unknown {
  if (typeof value === 'number') {
    if (existing === undefined) return value;
    if (typeof existing !== 'number')
      throw validation('An operand in the update expression has an incorrect data type');
    return existing + value;
  }
  if (value instanceof Set) {
    if (existing === undefined) return new Set(value);
    if (!(existing instanceof Set)) throw validation('An operand in the update expression has an incorrect data type');
    return new Set([...existing, ...value]);
  }
  throw validation('Incorrect operand type for operator or function; operator: ADD');
}

const isMap = (v: unknown): v is Item =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Set) && !(v instanceof Uint8Array);

function resolvePath(item: Item, path: readonly string[]): unknown {
  let at: unknown = item;
  for (const p of path) {
    if (!isMap(at)) return undefined;
    at = at[p];
  }
  return at;
}

export function awsError(name: string, message: string): Error {
  return Object.assign(new Error(message), { name, $metadata: {} });
}
const validation = (message: string) => awsError('ValidationException', message);
const conditionalFailed = () =>
  new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });

type Condition = (item: Item) => boolean;
type Operand = (item: Item) => unknown;
interface Action {
  kind: 'SET' | 'ADD' | 'REMOVE';
  path: string[];
  value?: Operand;
}

const TOKEN = /\s*(#\w+|:\w+|[A-Za-z_][\w]*|<>|<=|>=|[=<>(),.+-])/y;
const COMPARATORS = new Set(['=', '<>', '<', '<=', '>', '>=']);
const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'SET', 'ADD', 'REMOVE', 'DELETE']);

/** One request's expressions: parsed against its name and value maps, which must be used whole. */
class Expressions {
  private tokens: string[] = [];
  private at = 0;
  private readonly usedNames = new Set<string>();
  private readonly usedValues = new Set<string>();

  private readonly names: Record<string, string>;
  private readonly values: Record<string, unknown>;

  constructor(names: Record<string, string> | undefined, values: Record<string, unknown> | undefined) {
    // DynamoDB refuses empty maps (lambdas/lib/item-update.ts leaves them out).
    if (names && Object.keys(names).length === 0) throw validation('ExpressionAttributeNames must not be empty');
    if (values && Object.keys(values).length === 0) throw validation('ExpressionAttributeValues must not be empty');
    this.names = names ?? {};
    this.values = values ?? {};
  }

  checkAllUsed(): void {
    for (const n of Object.keys(this.names))
      if (!this.usedNames.has(n))
        throw validation(`Value provided in ExpressionAttributeNames unused in expressions: keys: {${n}}`);
    for (const v of Object.keys(this.values))
      if (!this.usedValues.has(v))
        throw validation(`Value provided in ExpressionAttributeValues unused in expressions: keys: {${v}}`);
  }

  condition(text: string): Condition {
    this.start(text);
    const c = this.or();
    this.end();
    return c;
  }

  update(text: string): Action[] {
    this.start(text);
    const actions: Action[] = [];
    const seen = new Set<string>();
    while (this.peek() !== undefined) {
      const clause = this.next().toUpperCase();
      if (seen.has(clause)) throw validation(`The "${clause}" section can only be used once in an update expression`);
      seen.add(clause);
      do {
        const path = this.path();
        if (clause === 'SET') {
          this.expect('=');
          actions.push({ kind: 'SET', path, value: this.setValue() });
        } else if (clause === 'ADD') {
          actions.push({ kind: 'ADD', path, value: this.value() });
        } else if (clause === 'REMOVE') {
          actions.push({ kind: 'REMOVE', path });
        } else throw validation(`Unsupported update clause ${clause}`);
      } while (this.accept(','));
    }
    const joined = actions.map((a) => a.path.join('\u0000'));
    for (const [i, p] of joined.entries())
      for (const [j, q] of joined.entries())
        if (i !== j && (p === q || q.startsWith(`${p}\u0000`)))
          throw validation(`Two document paths overlap with each other: [${actions[i].path}], [${actions[j].path}]`);
    return actions;
  }

  private start(text: string) {
    this.tokens = [];
    this.at = 0;
    TOKEN.lastIndex = 0;
    while (TOKEN.lastIndex < text.length) {
      const m = TOKEN.exec(text);
      if (!m) {
        if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break;
        throw validation(`Invalid expression: unexpected text at ${TOKEN.lastIndex}: ${text}`);
      }
      this.tokens.push(m[1]);
    }
  }

  private peek = () => this.tokens[this.at];
  private next(): string {
    const t = this.tokens[this.at++];
    if (t === undefined) throw validation('Invalid expression: unexpected end');
    return t;
  }
  private accept(t: string): boolean {
    if (this.peek() !== t) return false;
    this.at++;
    return true;
  }
  private expect(t: string): void {
    const got = this.next();
    if (got !== t) throw validation(`Invalid expression: expected ${t}, got ${got}`);
  }
  private end(): void {
    if (this.peek() !== undefined) throw validation(`Invalid expression: unexpected ${this.peek()}`);
  }

  private or(): Condition {
    let left = this.and();
    while (this.peek()?.toUpperCase() === 'OR') {
      this.next();
      const a = left;
      const b = this.and();
      left = (item) => a(item) || b(item);
    }
    return left;
  }

  private and(): Condition {
    let left = this.not();
    while (this.peek()?.toUpperCase() === 'AND') {
      this.next();
      const a = left;
      const b = this.not();
      left = (item) => a(item) && b(item);
    }
    return left;
  }

  private not(): Condition {
    if (this.peek()?.toUpperCase() === 'NOT') {
      this.next();
      const c = this.not();
      return (item) => !c(item);
    }
    return this.primary();
  }

  private primary(): Condition {
    if (this.accept('(')) {
      const c = this.or();
      this.expect(')');
      return c;
    }
    const t = this.peek();
    if (t === 'attribute_exists' || t === 'attribute_not_exists') {
      this.next();
      this.expect('(');
      const path = this.path();
      this.expect(')');
      return t === 'attribute_exists'
        ? (item) => resolvePath(item, path) !== undefined
        : (item) => resolvePath(item, path) === undefined;
    }
    const left = this.operand();
    const op = this.next();
    if (!COMPARATORS.has(op)) throw validation(`Invalid expression: unsupported operator ${op}`);
    const right = this.operand();
    return (item) => compare(left(item), op, right(item));
  }

  private setValue(): Operand {
    if (this.peek() === 'if_not_exists') {
      this.next();
      this.expect('(');
      const path = this.path();
      this.expect(',');
      const fallback = this.operand();
      this.expect(')');
      return (item) => resolvePath(item, path) ?? fallback(item);
    }
    const left = this.operand();
    const op = this.peek();
    if (op !== '+' && op !== '-') return left;
    this.next();
    const right = this.operand();
    return (item) => {
      const [a, b] = [left(item), right(item)];
      if (typeof a !== 'number' || typeof b !== 'number')
        throw validation('An operand in the update expression has an incorrect data type');
      return op === '+' ? a + b : a - b;
    };
  }

  private operand(): Operand {
    if (this.peek()?.startsWith(':')) {
      const v = this.value()({});
      return () => v;
    }
    const path = this.path();
    return (item) => resolvePath(item, path);
  }

  private value(): Operand {
    const t = this.next();
    if (!t.startsWith(':')) throw validation(`Invalid expression: expected a value, got ${t}`);
    if (!(t in this.values) || this.values[t] === undefined)
      throw validation(`An expression attribute value used in expression is not defined; attribute value: ${t}`);
    this.usedValues.add(t);
    const v = this.values[t];
    return () => v;
  }

  private path(): string[] {
    const path = [this.name()];
    while (this.accept('.')) path.push(this.name());
    return path;
  }

  private name(): string {
    const t = this.next();
    if (t.startsWith('#')) {
      if (!(t in this.names))
        throw validation(`An expression attribute name used in the document path is not defined; attribute name: ${t}`);
      this.usedNames.add(t);
      return this.names[t];
    }
    if (!/^[A-Za-z_]\w*$/.test(t) || KEYWORDS.has(t.toUpperCase()) || RESERVED.has(t.toUpperCase()))
      throw validation(`Invalid expression: attribute name is a reserved keyword or not a name: ${t}`);
    return t;
  }
}

/** A few of DynamoDB's reserved words that the handlers' attributes would hit if not named with #placeholders. */
const RESERVED = new Set(['STATUS', 'COUNT', 'ERROR', 'ITEMS', 'NAME', 'SIZE', 'TYPE', 'KEY', 'USER', 'DATA']);

/** DynamoDB's comparison: same type only; a missing attribute equals nothing and differs from everything. */
function compare(a: unknown, op: string, b: unknown): boolean {
  if (op === '=') return a !== undefined && isDeepStrictEqual(a, b);
  if (op === '<>') return a === undefined || !isDeepStrictEqual(a, b);
  const numbers = typeof a === 'number' && typeof b === 'number';
  const strings = typeof a === 'string' && typeof b === 'string';
  if (!numbers && !strings) return false;
  const [x, y] = [a as number | string, b as number | string];
  if (op === '<') return x < y;
  if (op === '<=') return x <= y;
  if (op === '>') return x > y;
  return x >= y;
}
