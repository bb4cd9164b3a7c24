/**
 * Typed client for the ToonZap API (same origin, /api/...). Every error message here is the exact text
 * of the spec's error catalogue (section 8); screens only prefix or display them.
 */

import { apiPath } from '../../../domain/api-routes';
import type {
  AddressErasureReport,
  AppConfig,
  CheckoutResponse,
  ErasureReport,
  Generation,
  GenerationGone,
  ModerationResult,
  QueryOf,
  RegisterResult,
  RequestOf,
  Style,
  Thumbnail,
} from '../../../domain/contract';
import type { GeneratedImage, JobStatus } from '../../../domain/contract-shapes';
import { hexToBase64 } from './hash';
import { detailFromBody, getJson, postJson, readDetail, statusTextOf } from './http';

// The API's shapes come from the one contract (type-only: nothing of zod reaches the bundle).
export type * from '../../../domain/contract';
export type * from '../../../domain/contract-shapes';

/**
 * The order's photos and images were deleted at the customer's request (410): the message stays the spec's
 * 'HTTP error! status: 410'; `gone` says what happened and when.
 */
export class GenerationGoneError extends Error {
  override name = 'GenerationGoneError';
  constructor(readonly gone: GenerationGone) {
    super('HTTP error! status: 410');
  }
}

/** The job id is no longer known to the server: polling must stop. */
export class JobNotFoundError extends Error {
  override name = 'JobNotFoundError';
}

// ---------------------------------------------------------------------------------------------
// Config and health

export async function getConfig(): Promise<AppConfig> {
  const res = await getJson(apiPath('config'));
  if (!res.ok) throw new Error(`HTTP error! status: ${res.status}`);
  return (await res.json()) as AppConfig;
}

/** Health ping on wizard load; only the outcome is recorded. */
export async function pingStatus(): Promise<boolean> {
  try {
    const res = await getJson(apiPath('status'));
    if (!res.ok) return false;
    const body = (await res.json()) as { status?: string };
    return body.status === 'ok';
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Upload

export async function registerUpload(imageHash: string, fileType: string, fileSize: number): Promise<RegisterResult> {
  const res = await postJson(apiPath('upload-image'), {
    image_hash: imageHash,
    file_type: fileType,
    file_size: fileSize,
  } as RequestOf<'upload-image'>);
  if (!res.ok) {
    const detail = await readDetail(res);
    throw new Error(`Failed to upload image: ${detail ?? statusTextOf(res)}`);
  }
  return (await res.json()) as RegisterResult;
}

/** Message for a failed storage PUT: S3 XML errors give code and message, anything else the raw body. */
export function storageErrorMessage(statusText: string, body: string): string {
  const code = /<Code>([\s\S]*?)<\/Code>/.exec(body)?.[1];
  const message = /<Message>([\s\S]*?)<\/Message>/.exec(body)?.[1];
  if (/^\s*(<\?xml[^>]*>\s*)?<Error[\s>]/.test(body) && (code !== undefined || message !== undefined)) {
    return `S3 upload failed: ${code ?? ''} - ${message ?? ''}`;
  }
  return `Failed to upload image: ${statusText} - ${body}`;
}

/**
 * PUTs the file to its presigned URL with the headers the URL signs: the type, the SHA-256 checksum (the image hash
 * in base64; storage refuses other bytes) and If-None-Match (write-once). The browser sets Content-Length from the
 * file itself. 412 means the object is already stored (another tab uploaded the same photo): the server checks it.
 */
export async function putToStorage(url: string, file: Blob, fileType: string, imageHash: string): Promise<void> {
  const res = await fetch(url, {
    method: 'PUT',
    body: file,
    headers: { 'Content-Type': fileType, 'x-amz-checksum-sha256': hexToBase64(imageHash), 'If-None-Match': '*' },
  });
  if (res.status === 412) return;
  if (!res.ok) {
    const body = await res.text().catch(() => '');
    throw new Error(storageErrorMessage(statusTextOf(res), body));
  }
}

// ---------------------------------------------------------------------------------------------
// Styles, moderation, thumbnails

export async function getAvailableStyles(): Promise<Style[]> {
  const res = await getJson(apiPath('available-styles'));
  if (!res.ok) throw new Error(`HTTP error! status: ${res.status}`);
  const body = (await res.json()) as { styles?: Style[] };
  return Array.isArray(body.styles) ? body.styles : [];
}

async function startJob(url: string, payload: unknown, failPrefix: string, endpoint: string): Promise<string> {
  const res = await postJson(url, payload);
  const text = await res.text().catch(() => '');
  if (!res.ok) {
    throw new Error(`${failPrefix}: ${detailFromBody(text) ?? statusTextOf(res)}`);
  }
  let jobId: unknown;
  try {
    jobId = (JSON.parse(text) as { job_id?: unknown }).job_id;
  } catch {
    jobId = undefined;
  }
  if (typeof jobId !== 'string' || !jobId) throw new Error(`No job_id received from ${endpoint}`);
  return jobId;
}

export function startModeration(imageHashes: string[]): Promise<string> {
  return startJob(
    apiPath('process-moderation'),
    { image_hashes: imageHashes },
    'Failed to start moderation',
    '/process-moderation',
  );
}

export function startThumbnails(imageHash: string): Promise<string> {
  return startJob(
    apiPath('process-thumbnail'),
    { image_hash: imageHash },
    'Failed to start thumbnail generation',
    '/process-thumbnail',
  );
}

export type JobKind = 'moderation' | 'thumbnail';

/**
 * A job's status read, long-polled: the server answers when the job ends, or within JOB_WAIT_MS
 * (domain/job-polling.ts) if it has not, so a poll every 2 s still sees the job end when it ends.
 */
export function jobStatusPath(jobId: string): string {
  const query = new URLSearchParams({ wait: '1' } satisfies QueryOf<'get-job'>);
  return `${apiPath('get-job', { job_id: jobId })}?${query}`;
}

/** One status read of a job. 404 throws JobNotFoundError; other failures throw a plain Error. */
export async function getJobStatus(jobId: string, kind: JobKind, signal?: AbortSignal): Promise<JobStatus> {
  const res = await getJson(jobStatusPath(jobId), { signal });
  if (res.status === 404) {
    throw new JobNotFoundError(kind === 'thumbnail' ? `Thumbnail job ${jobId} not found.` : `Job ${jobId} not found.`);
  }
  if (!res.ok) {
    const detail = await readDetail(res);
    throw new Error(`Failed to get job status: ${detail ?? statusTextOf(res)}`);
  }
  const body: unknown = await res.json();
  // A value this bundle does not know (a newer server) is passed on as it is: the caller keeps polling.
  if (typeof body === 'string') return body as JobStatus;
  if (body && typeof body === 'object' && 'status' in body)
    return String((body as { status: unknown }).status) as JobStatus;
  return String(body) as JobStatus;
}

export async function getModeration(imageHash: string, signal?: AbortSignal): Promise<ModerationResult> {
  const res = await getJson(apiPath('get-moderation', { image_hash: imageHash }), { signal });
  if (!res.ok) throw new Error(`Failed to get moderation result: ${statusTextOf(res)}`);
  return (await res.json()) as ModerationResult;
}

export async function getThumbnails(imageHash: string, signal?: AbortSignal): Promise<Thumbnail[]> {
  const res = await getJson(apiPath('get-thumbnails', { image_hash: imageHash }), { signal });
  if (!res.ok) throw new Error(`Failed to get thumbnails: ${statusTextOf(res)}`);
  const body: unknown = await res.json();
  return Array.isArray(body) ? (body as Thumbnail[]) : [];
}

/**
 * Storage addresses that point at an internal host (a docker-compose name such as `localstack` or
 * `s3`, i.e. a single-label host other than localhost) are rewritten to the page's host name so the
 * browser can reach them during local development. Public URLs are returned unchanged.
 */
export function toDisplayUrl(url: string, pageHostname: string): string {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname;
    if (host && !host.includes('.') && host !== 'localhost' && !host.includes(':')) {
      parsed.hostname = pageHostname;
      return parsed.toString();
    }
  } catch {
    // relative or malformed: leave as is
  }
  return url;
}

// ---------------------------------------------------------------------------------------------
// Payment and sign-up

/** Creates a checkout session. Failures throw with the server detail or 'HTTP error! status: {code}'. */
export async function createCheckout(email: string, hashes: string[], styles: string[]): Promise<CheckoutResponse> {
  const res = await postJson(apiPath('checkout'), { email, hashes, styles });
  if (!res.ok) {
    const detail = await readDetail(res);
    throw new Error(detail ?? `HTTP error! status: ${res.status}`);
  }
  return (await res.json()) as CheckoutResponse;
}

/** Preview (pre-launch) sign-up. Failures throw with the server detail or 'HTTP error! Status: {code}'. */
export async function previewSignup(email: string, imageHash: string): Promise<void> {
  const res = await postJson(apiPath('preview-signup'), { email, image_hash: imageHash });
  if (!res.ok) {
    const detail = await readDetail(res);
    throw new Error(detail ?? `HTTP error! Status: ${res.status}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Generations and images

export async function getGeneration(id: string, signal?: AbortSignal): Promise<Generation> {
  const res = await getJson(apiPath('get-generation', { id }), { signal });
  if (res.status === 410) {
    const body = (await res.json().catch(() => null)) as Partial<GenerationGone> | null;
    if (typeof body?.detail === 'string' && typeof body.erased_at === 'string') {
      throw new GenerationGoneError({ detail: body.detail, erased_at: body.erased_at });
    }
  }
  if (!res.ok) throw new Error(`HTTP error! status: ${res.status}`);
  const body = (await res.json()) as Generation;
  return { ...body, images: Array.isArray(body.images) ? body.images : [] };
}

/** Deletes the order's photos, images and e-mail address. Failures throw with the server detail. */
export async function deleteOrderData(id: string): Promise<ErasureReport> {
  const res = await postJson(apiPath('delete-order-data', { id }), {});
  if (!res.ok) {
    const detail = await readDetail(res);
    throw new Error(detail ?? `HTTP error! status: ${res.status}`);
  }
  return ((await res.json()) as { deleted: ErasureReport }).deleted;
}

/** One image of a share link (`id`: the share id in the link, never a photo's hash). */
export async function getImage(id: string, style: string, signal?: AbortSignal): Promise<GeneratedImage> {
  const res = await getJson(apiPath('get-image', { id, style }), { signal });
  if (res.status === 404) throw new Error('Image or style not found.');
  if (!res.ok) throw new Error('Failed to load image.');
  return (await res.json()) as GeneratedImage;
}

export async function getGallery(id: string, signal?: AbortSignal): Promise<GeneratedImage[]> {
  const res = await getJson(apiPath('get-images', { id }), { signal });
  if (res.status === 404) throw new Error('No images found for this hash.');
  if (!res.ok) throw new Error('Failed to load images.');
  const body: unknown = await res.json();
  return Array.isArray(body) ? (body as GeneratedImage[]) : [];
}

// ---------------------------------------------------------------------------------------------
// Erasing everything tied to an e-mail address

/** Asks for the confirmation link to be e-mailed to the address. Failures throw with the server detail. */
export async function requestErasure(email: string): Promise<void> {
  const res = await postJson(apiPath('request-erasure'), { email } as RequestOf<'request-erasure'>);
  if (!res.ok) throw new Error((await readDetail(res)) ?? `HTTP error! status: ${res.status}`);
}

/** Confirms the link's erasure; what was deleted. Failures (an old link) throw with the server detail. */
export async function confirmErasure(token: string): Promise<AddressErasureReport> {
  const res = await postJson(apiPath('confirm-erasure', { token }), {});
  if (!res.ok) throw new Error((await readDetail(res)) ?? `HTTP error! status: ${res.status}`);
  return ((await res.json()) as { deleted: AddressErasureReport }).deleted;
}
