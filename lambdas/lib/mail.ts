import { SendEmailCommand } from '@aws-sdk/client-sesv2';
import type { RenderedEmail } from '../../domain/email-template';
import { renderOrderEmail } from '../../domain/order-email';
import { ses } from './aws';
import { pausePoint } from './fault-points';
import { claimEmail, type GenerationRecord, markEmailSent, releaseEmail } from './orders';
import { receiptOf } from './receipt';
import { settings } from './settings';

/** Longer than a send can take (the e-mail task's timeout), so a live sender's claim is never taken over. */
export const EMAIL_LEASE_SECONDS = 30;

export class EmailInProgress extends Error {
  override name = 'EmailInProgress';
}

/**
 * Sends the order's e-mail at most once per generation (see claimEmail). A claim held by another run that may still
 * be sending makes this throw EmailInProgress, which the state machine retries until the lease runs out.
 */
export async function sendOrderEmail(generation: GenerationRecord): Promise<'sent' | 'already-sent'> {
  if (generation.status !== 'completed' && generation.status !== 'failed') {
    throw new Error(`Generation ${generation.generation_id} is ${generation.status}; the e-mail waits for the outcome`);
  }
  const claim = await claimEmail(generation.generation_id, EMAIL_LEASE_SECONDS);
  if (claim === 'sent') return 'already-sent';
  if (claim === 'busy')
    throw new EmailInProgress(`E-mail for ${generation.generation_id} is being sent by another run`);
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
  let messageId: string | undefined;
  try {
    messageId = await sendMail(generation.email, message, ['generation_id', generation.generation_id]);
  } catch (err) {
    await releaseEmail(generation.generation_id);
    throw err;
  }
  await markEmailSent(generation.generation_id, messageId);
  return 'sent';
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
