import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { OrderStatus } from '../../domain/orders';
import { ddb, writeIf } from './aws';
import { updateCommand } from './item-update';
import { settings } from './settings';
import { updateStatus } from './status-update';

/** Orders (the orders table): stored by checkout, paid, expired, refunded or disputed by Stripe's events. */

/** An order as checkout stored it; amounts in cents, computed on the server. */
export interface OrderRecord {
  order_id: string;
  status: OrderStatus;
  email: string;
  /** The address as indexed (domain/email.ts emailKey): the erasure an address confirms finds the order by it. */
  email_key?: string;
  /** The owner id (lambdas/lib/owners.ts) who placed it; absent on orders from before owners. */
  owner?: string;
  hashes: string[];
  styles: string[];
  generations: number;
  price_per_generation: number;
  original_price: number;
  discount: number;
  total: number;
  currency: string;
  created_at: string;
  /** Unix seconds. Not `expires_at`: that name is the tables' TTL attribute and would delete the order. */
  session_expires_at: number;
  /** TTL (Unix seconds): an order never paid is deleted then (domain/privacy.ts); removed when it is paid. */
  expires_at?: number;
  /** Set when the customer deleted their data: the e-mail address is gone, the accounting figures stay. */
  erased_at?: string;
  session_id?: string;
  payment_intent?: string;
  paid_at?: string;
  expired_at?: string;
  refunded_at?: string;
  refund_reason?: string;
}

const orders = () => settings.table('orders');

export async function putOrder(order: OrderRecord): Promise<void> {
  await ddb().send(
    new PutCommand({ TableName: orders(), Item: order, ConditionExpression: 'attribute_not_exists(order_id)' }),
  );
}

export async function getOrder(orderId: string): Promise<OrderRecord | null> {
  const res = await ddb().send(
    new GetCommand({ TableName: orders(), Key: { order_id: orderId }, ConsistentRead: true }),
  );
  return (res.Item as OrderRecord | undefined) ?? null;
}

export async function setOrderSession(orderId: string, sessionId: string): Promise<void> {
  await ddb().send(
    updateCommand('orders', orderId, { set: { session_id: sessionId }, condition: 'attribute_exists(order_id)' }),
  );
}

/**
 * Marks an order paid (idempotent: the first payment time and intent are kept). Returns the order as stored, or
 * null when the order is not there or its payment was refunded instead (it is never fulfilled then).
 */
export async function markOrderPaid(
  orderId: string,
  paymentIntent: string,
  sessionId: string,
): Promise<OrderRecord | null> {
  const paid = await writeIf(
    updateCommand('orders', orderId, {
      set: { status: 'paid' },
      setIfMissing: { paid_at: new Date().toISOString(), payment_intent: paymentIntent, session_id: sessionId },
      // A paid order is kept for accounting: its expiry (meant for abandoned checkouts) goes.
      remove: ['expires_at'],
      condition: 'attribute_exists(order_id) AND {status} <> :refunded',
      values: { ':refunded': 'refunded' },
    }),
  );
  return paid ? getOrder(orderId) : null;
}

/** An unpaid order ends, stamped `<status>_at`: only from 'created', so a paid order is never moved back. */
function endUnpaidOrder(orderId: string, status: 'expired' | 'refunded', set?: Record<string, unknown>) {
  return updateStatus({
    table: 'orders',
    id: orderId,
    status,
    when: { from: 'created' },
    stamp: [`${status}_at`],
    set,
  });
}

/** An unpaid order whose session expired. */
export function markOrderExpired(orderId: string): Promise<boolean> {
  return endUnpaidOrder(orderId, 'expired');
}

/** A payment that is not ours to fulfil was refunded whole: the order ends there (never paid, never generated). */
export function markOrderRefunded(orderId: string, reason: string): Promise<boolean> {
  return endUnpaidOrder(orderId, 'refunded', { refund_reason: reason });
}

/**
 * A payment of the order was disputed (a chargeback): recorded on the order for the operator, who answers it in
 * Stripe. The first dispute's time is kept; a later one of the same order names itself. False if no such order.
 */
export function markOrderDisputed(
  orderId: string,
  dispute: { id: string; reason: string; amount: number; currency: string },
): Promise<boolean> {
  return writeIf(
    updateCommand('orders', orderId, {
      set: {
        dispute_id: dispute.id,
        dispute_reason: dispute.reason,
        dispute_amount: dispute.amount,
        dispute_currency: dispute.currency,
      },
      setIfMissing: { disputed_at: new Date().toISOString() },
      condition: 'attribute_exists(order_id)',
    }),
  );
}
