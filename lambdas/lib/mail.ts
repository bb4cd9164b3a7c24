import { SendEmailCommand } from '@aws-sdk/client-sesv2';
import type { RenderedEmail } from '../../domain/email-template';
import { renderOrderEmail } from '../../domain/order-email';
import { ses } from './aws';
import { pausePoint } from './fault-points';
import { type FinishedGeneration, type GenerationRecord, isFinished, markEmailSent } from './generations';
import { InProgress, once } from './idempotency';
import { receiptOf } from './receipt';
import { settings } from './settings';

export class EmailInProgress extends Error {
  override name = 'EmailInProgress';
}

/**
 * The order's e-mail, sent once per generation (lambdas/lib/idempotency.ts). Only a sender that dies after SES accepted
 * the message but before its result was stored leaves a second copy possible.
 */
const sendOnce = once({ name: 'order-email', key: 'generation_id' }, async (generation: FinishedGeneration) => {
  await pausePoint('email:claimed');
  const items = Object.values(generation.items);
  const delivered = items.filter((i) => i.status === 'done');
  // Each photo's gallery by its share link, never by the photo's hash.
  const galleryShareIds = [...new Set(delivered.map((i) => i.image_hash))].flatMap(
    (hash) => generation.share_ids?.[hash] ?? [],
  );
  const message = renderOrderEmail({
    brand: settings.brandName,
    siteUrl: settings.siteUrl,
    supportEmail: settings.supportEmail,
    generationId: generation.generation_id,
    status: generation.status,
    galleryShareIds,
    delivered: delivered.length,
    notice: generation.error ?? null,
    receipt: await receiptOf(generation),
  });
  const messageId = await sendMail(generation.email, message, ['generation_id', generation.generation_id]);
  return { message_id: messageId ?? '' };
});

/**
 * Sends the order's e-mail at most once per generation, and records it on the generation (the reconciler reads that).
 * Another run at it now makes this throw EmailInProgress, which the state machine retries until that run sent it or
 * its function's timeout passed (it died: this run then sends).
 */
export async function sendOrderEmail(generation: GenerationRecord): Promise<'sent' | 'already-sent'> {
  if (!isFinished(generation)) {
    throw new Error(`Generation ${generation.generation_id} is ${generation.status}; the e-mail waits for the outcome`);
  }
  let sent: Awaited<ReturnType<typeof sendOnce>>;
  try {
    sent = await sendOnce(generation);
  } catch (err) {
    if (err instanceof InProgress)
      throw new EmailInProgress(`E-mail for ${generation.generation_id} is being sent by another run`);
    throw err;
  }
  // After the send's record, and again on a replay: a run that died in between leaves it to the next.
  await markEmailSent(generation.generation_id, sent.result.message_id);
  return sent.replayed ? 'already-sent' : 'sent';
}

/** Sends one e-mail through SES (Reply-To: the support address), tagged with what it is about. Returns its id. */
export async function sendMail(
  to: string,
  message: RenderedEmail,
  [tagName, tagValue]: [string, string],
): Promise<string | undefined> {
  const res = await ses().send(
    new SendEmailCommand({
      FromEmailAddress: settings.mailFrom,
      Destination: { ToAddresses: [to] },
      // Replies reach people, not the no-reply sender.
      ReplyToAddresses: [settings.supportEmail],
      Content: {
        Simple: {
          Subject: { Data: message.subject, Charset: 'UTF-8' },
          Body: { Html: { Data: message.html, Charset: 'UTF-8' }, Text: { Data: message.text, Charset: 'UTF-8' } },
        },
      },
      EmailTags: [{ Name: tagName, Value: tagValue.replace(/[^A-Za-z0-9_-]/g, '_') }],
    }),
  );
  return res.MessageId;
}
