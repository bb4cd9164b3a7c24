import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { Context } from 'aws-lambda';
import { TABLES } from '../../domain/wiring';
import { dynamodb } from './aws';
import { invocationContext } from './observability';
import { settings } from './settings';

interface OnceOptions {
  /** Prefix of the records' keys; fixed here, so the same work done by different functions shares its records. */
  name: string;
  /** Where the key is in the work's input (a JMESPath expression); an input without one is refused. */
  key: string;
}

/**
 * How long a finished result is kept and given back (then the same key would run the work again): far longer than
 * Stripe retries an event (3 days) and than an order's pipeline and its reconciliation take.
 */
const RESULT_KEPT_SECONDS = 30 * 24 * 3600;

/** Another invocation is doing this work now (or died doing it less than its function's timeout ago). */
export const InProgress = IdempotencyAlreadyInProgressError;

/**
 * Work done once per key: Powertools idempotency, its records in the events table (key `event_id`, TTL `expires_at`).
 * The first call records the key in progress, runs the work and stores its result; a later call with the same key gets
 * that result back (`replayed`) without running it. A call while another holds the key throws InProgress until the
 * moment Lambda would stop the holder (its invocation's remaining time when it took the key): a holder past that died,
 * and the call takes over. Work that throws drops the record, so a retry does it again.
 */
export function once<I, R>(
  options: OnceOptions,
  work: (input: I) => Promise<R>,
): (input: I) => Promise<{ result: R; replayed: boolean }> {
  return async (input) => {
    const context = invocationContext();
    // Without it the key would stay taken until the record expires, were the holder to die.
    if (!context) throw new Error(`${options.name}: work done once runs only inside an invocation`);
    let replayed = false;
    // Made per call: the config holds this invocation's context, and the hook this call's flag.
    const config = new IdempotencyConfig({
      eventKeyJmesPath: options.key,
      throwOnNoIdempotencyKey: true,
      expiresAfterSeconds: RESULT_KEPT_SECONDS,
      // Powertools declares Lambda's whole Context but reads only getRemainingTimeInMillis, which ours has.
      lambdaContext: context as Context,
      responseHook: (response) => {
        replayed = true;
        return response;
      },
    });
    const persistenceStore = new DynamoDBPersistenceLayer({
      tableName: settings.table('events'),
      keyAttr: TABLES.events,
      // the table's TTL attribute (lib/storage.ts): a record is deleted once it expires
      expiryAttr: 'expires_at',
      awsSdkV3Client: dynamodb(),
    });
    const result = (await makeIdempotent(work, { persistenceStore, config, keyPrefix: options.name })(input)) as R;
    return { result, replayed };
  };
}
