import '../../support/task-env';
import { ITEM_ERRORS, itemKey } from '../../../domain/orders';
import { ENGINE_ERRORS } from '../../../domain/wiring';
import { handler } from '../../../lambdas/tasks/item-failed';
import { FakeTables } from '../../support/fake-dynamo';
import { ORDER_ID, paidOrder, storedGeneration, storeOrder } from '../../support/tasks';

/**
 * lambdas/tasks/item-failed.ts, the Catch of "Generate image" (lib/order-pipeline.ts): once an item's retries are
 * spent, it ends failed with the customer's reason and the operator's detail, counted once. The refund is not made
 * here but when the order finishes (order-finalize), so a retried Catch can never refund twice.
 */
const tables = new FakeTables();
const [A, B] = ['a'.repeat(64), 'b'.repeat(64)];
const item = { order_id: ORDER_ID, image_hash: A, style: 'comic' };
/** What Step Functions hands the Catch of an engine failure its retries did not cure. */
const engineFailure = {
  Error: ENGINE_ERRORS.modelError,
  Cause: JSON.stringify({ errorType: ENGINE_ERRORS.modelError, errorMessage: 'The model failed on this input.' }),
};

beforeEach(() => {
  tables.reset();
  storeOrder(tables, paidOrder([A, B], ['comic']));
});

test('the item ends failed with its reasons and is counted; the other items are untouched', async () => {
  expect(await handler({ ...item, error: engineFailure })).toEqual({ recorded: true });
  const g = storedGeneration(tables);
  expect(g.items[itemKey(A, 'comic')]).toMatchObject({
    status: 'failed',
    error: ITEM_ERRORS.render,
    error_detail: `${ENGINE_ERRORS.modelError}: The model failed on this input.`,
    finished_at: expect.any(String),
  });
  expect(g.items[itemKey(B, 'comic')].status).toBe('pending');
  expect([g.failed_count, g.done_count]).toEqual([1, 0]);
});

test('run again (the Catch retried): counted once, the first reason kept', async () => {
  await handler({ ...item, error: engineFailure });
  expect(await handler({ ...item, error: { Error: 'States.Timeout', Cause: 'later' } })).toEqual({ recorded: false });
  const g = storedGeneration(tables);
  expect(g.failed_count).toBe(1);
  expect(g.items[itemKey(A, 'comic')].error_detail).toMatch(/^EngineModelError/);
});

test('an item that was delivered meanwhile stays delivered', async () => {
  storeOrder(tables, paidOrder([A, B], ['comic'], { items: { [itemKey(A, 'comic')]: { status: 'done' } } }));
  expect(await handler({ ...item, error: engineFailure })).toEqual({ recorded: false });
  const g = storedGeneration(tables);
  expect(g.items[itemKey(A, 'comic')].status).toBe('done');
  expect([g.failed_count, g.done_count]).toEqual([0, 1]);
});

test('a timeout without a JSON cause is recorded by its name and text', async () => {
  await handler({ ...item, error: { Error: 'Sandbox.Timedout', Cause: 'Task timed out after 120.00 seconds' } });
  expect(storedGeneration(tables).items[itemKey(A, 'comic')].error_detail).toBe(
    'Sandbox.Timedout: Task timed out after 120.00 seconds',
  );
});
