import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from './aws';
import { settings } from './settings';

/** Job status values as the API returns them; SUCCESS and FAILURE are final. */
export type JobStatus = 'PENDING' | 'STARTED' | 'SUCCESS' | 'FAILURE';
export type JobKind = 'moderation' | 'thumbnail';

export interface JobRecord {
  job_id: string;
  kind: JobKind;
  status: JobStatus;
  image_hashes: string[];
  created_at: string;
  updated_at: string;
  execution_arn?: string;
  error?: string;
  /** Epoch seconds; DynamoDB TTL removes old jobs. */
  expires_at: number;
}

const table = () => settings.table('jobs');
const JOB_TTL_SECONDS = 7 * 24 * 3600;

export async function createJob(kind: JobKind, imageHashes: string[], status: JobStatus = 'PENDING'): Promise<JobRecord> {
  const now = new Date();
  const job: JobRecord = {
    job_id: randomUUID(),
    kind,
    status,
    image_hashes: imageHashes,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    expires_at: Math.floor(now.getTime() / 1000) + JOB_TTL_SECONDS,
  };
  await ddb().send(new PutCommand({ TableName: table(), Item: job, ConditionExpression: 'attribute_not_exists(job_id)' }));
  return job;
}

export async function getJob(jobId: string): Promise<JobRecord | null> {
  const res = await ddb().send(new GetCommand({ TableName: table(), Key: { job_id: jobId } }));
  return (res.Item as JobRecord | undefined) ?? null;
}

/** Moves a job forward; a finished job never changes again (a late retry cannot undo SUCCESS or FAILURE). */
export async function setJobStatus(jobId: string, status: JobStatus, extra: { error?: string; execution_arn?: string } = {}): Promise<boolean> {
  const names: Record<string, string> = { '#s': 'status' };
  const values: Record<string, unknown> = { ':s': status, ':now': new Date().toISOString(), ':ok': 'SUCCESS', ':failed': 'FAILURE' };
  let update = 'SET #s = :s, updated_at = :now';
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) continue;
    // Placeholders for every name: 'error' is a DynamoDB reserved word.
    update += `, #${k} = :${k}`;
    names[`#${k}`] = k;
    values[`:${k}`] = v;
  }
  try {
    await ddb().send(new UpdateCommand({
      TableName: table(),
      Key: { job_id: jobId },
      UpdateExpression: update,
      ConditionExpression: 'attribute_exists(job_id) AND #s <> :ok AND #s <> :failed',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }));
    return true;
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') return false;
    throw err;
  }
}

/** Body of a job task: marks the job STARTED, runs, marks it SUCCESS. Failures reach the machine's Catch. */
export async function runJob<T>(jobId: string | undefined, work: () => Promise<T>): Promise<T> {
  if (jobId) await setJobStatus(jobId, 'STARTED');
  const result = await work();
  if (jobId) await setJobStatus(jobId, 'SUCCESS');
  return result;
}
