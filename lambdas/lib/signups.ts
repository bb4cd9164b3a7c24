import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { emailKey } from '../../domain/email';
import { expiresAt } from '../../domain/privacy';
import { writeIf } from './aws';
import { settings } from './settings';

/** Preview sign-ups: one per (normalized e-mail, photo). */
export function putSignup(email: string, imageHash: string): Promise<boolean> {
  const normalized = emailKey(email);
  return writeIf(
    new PutCommand({
      TableName: settings.table('signups'),
      Item: {
        signup_id: `${normalized}#${imageHash}`,
        email: normalized,
        image_hash: imageHash,
        created_at: new Date().toISOString(),
        expires_at: expiresAt('signups'),
      },
      ConditionExpression: 'attribute_not_exists(signup_id)',
    }),
  );
}
