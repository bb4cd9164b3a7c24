import { createHash, randomBytes } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { OWNER_COOKIE, OWNER_COOKIE_MAX_AGE_SECONDS, OWNER_SECRET_RE } from '../../domain/ownership';
import { expiresAt } from '../../domain/privacy';
import { TABLE_INDEXES } from '../../domain/wiring';
import { ddb } from './aws';
import { cookieValue, notFound } from './http';
import { getImage, type ImageRecord } from './images';
import { settings } from './settings';

/**
 * Owners and holds: who may reach a photo. The browser keeps an owner secret in a cookie; the tables keep only its
 * SHA-256 (the owner id), so a copy of the tables opens nothing. A photo is held by each owner who proved they have
 * its bytes and by each order placed on it (the `holds` table, `<hash>#<holder>`, indexed by photo).
 */

/** 128 random bits, base64url: share ids, registration ids. */
export const randomId = (): string => randomBytes(16).toString('base64url');

const ownerIdOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** The caller's owner id, or null when the request carries no (well-formed) owner secret. */
export function callerOwner(event: APIGatewayProxyEventV2): string | null {
  const secret = cookieValue(event, OWNER_COOKIE);
  return secret && OWNER_SECRET_RE.test(secret) ? ownerIdOf(secret) : null;
}

/**
 * The caller's owner id, issuing a new secret when the request has none: `cookie` is then the Set-Cookie value to
 * answer with. Secure: CloudFront serves the API over https only; browsers also accept it from http://localhost.
 */
export function ownerOrIssue(event: APIGatewayProxyEventV2): { owner: string; cookie?: string } {
  const known = callerOwner(event);
  if (known) return { owner: known };
  const secret = randomBytes(32).toString('base64url');
  return {
    owner: ownerIdOf(secret),
    cookie: `${OWNER_COOKIE}=${secret}; Path=/api; Max-Age=${OWNER_COOKIE_MAX_AGE_SECONDS}; HttpOnly; Secure; SameSite=Strict`,
  };
}

export type Holder = `owner#${string}` | `order#${string}`;

export interface HoldRecord {
  hold_id: string;
  image_hash: string;
  holder: Holder;
  /** Owner holds: 'pending' until the registration's proof upload is checked, then 'owner'. */
  state?: 'pending' | 'owner';
  /** A pending owner hold's registration: its proof upload is at mediaKey.proof(registration_id). */
  registration_id?: string;
  /** Order holds: the owner who placed the order. */
  owner?: string;
  created_at: string;
  expires_at?: number;
}

const table = () => settings.table('holds');
const holdId = (hash: string, holder: Holder) => `${hash}#${holder}`;

export async function getHold(hash: string, holder: Holder): Promise<HoldRecord | null> {
  const res = await ddb().send(
    new GetCommand({ TableName: table(), Key: { hold_id: holdId(hash, holder) }, ConsistentRead: true }),
  );
  return (res.Item as HoldRecord | undefined) ?? null;
}

export async function putHold(record: Omit<HoldRecord, 'hold_id' | 'created_at'>): Promise<void> {
  await ddb().send(
    new PutCommand({
      TableName: table(),
      Item: { ...record, hold_id: holdId(record.image_hash, record.holder), created_at: new Date().toISOString() },
    }),
  );
}

export async function deleteHold(hash: string, holder: Holder): Promise<void> {
  await ddb().send(new DeleteCommand({ TableName: table(), Key: { hold_id: holdId(hash, holder) } }));
}

/** Every hold on a photo: one Query of the by-image index (erasure asks who else still holds it). */
export async function holdsOf(hash: string): Promise<HoldRecord[]> {
  const index = TABLE_INDEXES.holds!;
  const items: HoldRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await ddb().send(
      new QueryCommand({
        TableName: table(),
        IndexName: index.name,
        KeyConditionExpression: '#k = :h',
        ExpressionAttributeNames: { '#k': index.key },
        ExpressionAttributeValues: { ':h': hash },
        ExclusiveStartKey: start,
      }),
    );
    items.push(...((res.Items ?? []) as HoldRecord[]));
    start = res.LastEvaluatedKey;
  } while (start);
  return items;
}

/** An owner's hold, kept as long as the upload it opens. */
export function ownerHold(hash: string, owner: string, state: 'pending' | 'owner', registrationId?: string) {
  return putHold({
    image_hash: hash,
    holder: `owner#${owner}`,
    state,
    ...(registrationId ? { registration_id: registrationId } : {}),
    expires_at: expiresAt('uploads'),
  });
}

/** What every caller without the photo hears: the same answer whether the photo exists or not. */
export const notYours = (hash: string) => notFound(`Image ${hash} not found. Upload it first.`);

/** The caller's hold on a photo when they own it (proof checked), else null. */
export async function ownedHold(event: APIGatewayProxyEventV2, hash: string): Promise<HoldRecord | null> {
  const owner = callerOwner(event);
  if (!owner) return null;
  const hold = await getHold(hash, `owner#${owner}`);
  return hold?.state === 'owner' ? hold : null;
}

/** The photo's record for its owner; 404 for anyone else (as for a photo never registered). */
export async function ownedImage(event: APIGatewayProxyEventV2, hash: string): Promise<ImageRecord> {
  const [hold, image] = await Promise.all([ownedHold(event, hash), getImage(hash)]);
  if (!hold || !image) throw notYours(hash);
  return image;
}
