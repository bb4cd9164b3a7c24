import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { contract } from '../../domain/contract';
import { emailKey } from '../../domain/email';
import { photoSizeProblem } from '../../domain/image-format';
import { CHECKOUT_SESSION_SECONDS } from '../../domain/orders';
import { CURRENCY, orderSummary } from '../../domain/pricing';
import { expiresAt } from '../../domain/privacy';
import { getStyle } from '../../domain/styles';
import { badRequest, HttpError, httpHandler, parseBody, respond } from '../lib/http';
import { getImage } from '../lib/images';
import { logContext, logger } from '../lib/observability';
import { type OrderRecord, putOrder, setOrderSession } from '../lib/orders';
import { callerOwner, putHold } from '../lib/owners';
import { payments } from '../lib/payments';
import { requireOwnership } from '../lib/proofs';
import { settings } from '../lib/settings';

/**
 * POST /api/checkout {email, hashes, styles} → {session_id, order_id, url}.
 * The price is computed here from the order's shape (client figures are never trusted) and the order is stored
 * before the Stripe Checkout Session exists, so the webhook always finds the order it pays for.
 */
export const handler = httpHandler(async (event) => {
  if (settings.paymentMode === 'prelaunch') throw new HttpError(409, 'Payments are not live yet.');
  const { email, hashes, styles } = parseBody(event, contract.checkout.request);
  // Only the photos' owner orders images of them: a hash alone buys nothing.
  await requireOwnership(event, hashes);
  const owner = callerOwner(event)!;

  const images = await Promise.all(hashes.map(getImage));
  // Size and shape first: such a photo's verdict is 'invalid', and the visitor should learn why, not just that.
  const small = hashes.flatMap((h, i) => {
    const problem = images[i] ? photoSizeProblem(images[i]) : null;
    return problem ? [`Photo ${h.slice(0, 12)} ${problem}.`] : [];
  });
  if (small.length) {
    const more = small.length - 1;
    throw badRequest(
      `${small[0]}${more ? ` ${more} more ${more === 1 ? 'photo' : 'photos'} cannot be used either.` : ''}`,
    );
  }
  const refused = hashes.filter((_, i) => images[i]?.moderation !== 'allowed');
  if (refused.length) {
    throw badRequest(
      `${refused.length === 1 ? 'An image has' : `${refused.length} images have`} not passed moderation: ${refused.map((h) => h.slice(0, 12)).join(', ')}.`,
    );
  }

  const summary = orderSummary(hashes.length, styles.length);
  const now = Math.floor(Date.now() / 1000);
  const order: OrderRecord = {
    order_id: randomUUID(),
    status: 'created',
    email,
    email_key: emailKey(email),
    owner,
    hashes,
    styles,
    generations: summary.totalGenerations,
    price_per_generation: summary.pricePerGeneration,
    original_price: summary.originalPrice,
    discount: summary.discount,
    total: summary.total,
    currency: CURRENCY,
    created_at: new Date(now * 1000).toISOString(),
    session_expires_at: now + CHECKOUT_SESSION_SECONDS,
    expires_at: expiresAt('unpaidOrders', new Date(now * 1000)),
  };
  await putOrder(order);
  // The order holds its photos: erasing another order or owner's data never takes them from under it.
  await Promise.all(
    hashes.map((h) =>
      putHold({ image_hash: h, holder: `order#${order.order_id}`, owner, expires_at: expiresAt('uploads') }),
    ),
  );
  logContext({ order_id: order.order_id });

  // Back to the host the visitor used, when it is one of the site's own (an Origin header is not an address to trust).
  const origin = event.headers?.origin?.replace(/\/+$/, '');
  const back = origin && settings.siteOrigins.includes(origin) ? origin : settings.siteUrl;
  const { stripe } = await payments();
  const styleNames = styles.map((s) => getStyle(s)?.name ?? s).join(', ');
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.create(
      {
        mode: 'payment',
        // One line with the order total: the discount is rounded on the whole, so no per-unit price would add up to it.
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: order.currency,
              unit_amount: order.total,
              product_data: {
                name: `${settings.brandName}: ${order.generations} cartoon ${order.generations === 1 ? 'image' : 'images'}`,
                description:
                  `${hashes.length} ${hashes.length === 1 ? 'photo' : 'photos'} × ${styles.length} ${styles.length === 1 ? 'style' : 'styles'} (${styleNames}), ${summary.discountPercent}% off`.slice(
                    0,
                    500,
                  ),
              },
            },
          },
        ],
        customer_email: email,
        client_reference_id: order.order_id,
        metadata: { order_id: order.order_id },
        payment_intent_data: { metadata: { order_id: order.order_id } },
        success_url: `${back}/status/${order.order_id}`,
        // Cancel returns to the wizard's order step (its URL), where the visitor's choices are kept.
        cancel_url: `${back}/?step=order`,
        expires_at: order.session_expires_at,
      },
      { idempotencyKey: `checkout-${order.order_id}` },
    );
  } catch (err) {
    logger.error('Checkout Session not created', { error: err as Error });
    throw new HttpError(502, 'The payment provider is not reachable. Please try again.');
  }
  if (session.amount_total !== order.total) {
    // Never let a customer pay an amount other than the order's: the webhook would refuse to fulfil it.
    logger.error('Checkout Session amount differs from the order total', {
      amount_total: session.amount_total,
      total: order.total,
    });
    throw new HttpError(502, 'The payment provider returned an unexpected amount. Please try again.');
  }
  await setOrderSession(order.order_id, session.id);
  return respond('checkout', 200, { session_id: session.id, order_id: order.order_id, url: session.url });
});
