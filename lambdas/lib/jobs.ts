import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { expiresAt } from '../../domain/privacy';
import { ddb } from './aws';
import { HttpError } from './http';
import { logger } from './observability';
import { settings } from './settings';
import { updateStatus } from './status-update';
import { executionArn, executionStatus, startExecution } from './workflows';

/** Job status values as the API returns them; SUCCESS and FAILURE are final. */
export type JobStatus = 'PENDING' | 'STARTED' | 'SUCCESS' | 'FAILURE';
export type JobKind = 'moderation' | 'thumbnail';

export interface JobRecord {
  job_id: string;
  kind: JobKind;
  status: JobStatus;
  image_hashes: string[];
  /** The owner id of the caller who started it: only they may read it. */
  owner?: string;
  created_at: string;
  updated_at: string;
  execution_arn?: string;
  error?: string;
  /** Epoch seconds; DynamoDB TTL removes old jobs. */
  expires_at: number;
}

const table = () => settings.table('jobs');

export async function createJob(
  kind: JobKind,
  imageHashes: string[],
  owner: string,
  status: JobStatus = 'PENDING',
): Promise<JobRecord> {
  const now = new Date();
  const job: JobRecord = {
    job_id: randomUUID(),
    kind,
    status,
    image_hashes: imageHashes,
    owner,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    expires_at: expiresAt('jobs', now),
  };
  await ddb().send(
    new PutCommand({ TableName: table(), Item: job, ConditionExpression: 'attribute_not_exists(job_id)' }),
  );
  return job;
}

export async function getJob(jobId: string): Promise<JobRecord | null> {
  const res = await ddb().send(new GetCommand({ TableName: table(), Key: { job_id: jobId } }));
  return (res.Item as JobRecord | undefined) ?? null;
}

/** Moves a job forward; a finished job never changes again (a late retry cannot undo SUCCESS or FAILURE). */
export async function setJobStatus(
  jobId: string,
  status: JobStatus,
  extra: { error?: string; execution_arn?: string } = {},
): Promise<boolean> {
  return updateStatus({
    table: 'jobs',
    id: jobId,
    status,
    when: { notFrom: ['SUCCESS', 'FAILURE'] },
    stamp: ['updated_at'],
    set: extra,
  });
}

const START_FAILED: Record<JobKind, string> = {
  moderation: 'Moderation could not be started. Please try again.',
  thumbnail: 'Thumbnail generation could not be started. Please try again.',
};

/**
 * Creates a job (PENDING) and starts its execution of the jobs state machine, named after the job, so the execution
 * can always be found from the job id alone. A start that fails ends the job FAILURE and answers 503.
 */
export async function startJob(
  kind: JobKind,
  imageHashes: string[],
  owner: string,
  input: Record<string, unknown>,
): Promise<JobRecord> {
  const job = await createJob(kind, imageHashes, owner);
  try {
    const arn = await startExecution(settings.jobsMachineArn, job.job_id, { kind, job_id: job.job_id, ...input });
    await setJobStatus(job.job_id, 'PENDING', { execution_arn: arn });
  } catch (err) {
    await setJobStatus(job.job_id, 'FAILURE', { error: `Could not start: ${(err as Error).message}` });
    throw new HttpError(503, START_FAILED[kind]);
  }
  return job;
}

/** An unfinished job this old is checked against its execution, so a crash cannot leave it pending. */
export const JOB_RECONCILE_AFTER_MS = 30_000;

/**
 * The job's status as the API reports it. A job still unfinished after JOB_RECONCILE_AFTER_MS is checked against
 * its execution: one that ended without recording an outcome, or that does not exist at all (lost before it was
 * stored, or never started), ends the job FAILURE with the reason, so a poller is never left waiting or given a 500.
 */
export async function currentJobStatus(job: JobRecord): Promise<JobStatus> {
  if (job.status === 'SUCCESS' || job.status === 'FAILURE') return job.status;
  if (Date.now() - Date.parse(job.updated_at) <= JOB_RECONCILE_AFTER_MS) return job.status;
  const execution = await executionStatus(job.execution_arn ?? executionArn(settings.jobsMachineArn, job.job_id));
  let reason: string | null = null;
  if (execution.status === 'MISSING') reason = 'The job was lost before it ran (its execution does not exist).';
  else if (['FAILED', 'TIMED_OUT', 'ABORTED'].includes(execution.status))
    reason = execution.cause || execution.error || `Execution ${execution.status}`;
  else if (execution.status === 'SUCCEEDED') reason = 'The job ended without recording its outcome.';
  if (!reason) return job.status;
  logger.error('job ended without an outcome', { job_id: job.job_id, execution: execution.status, reason });
  await setJobStatus(job.job_id, 'FAILURE', { error: reason });
  return (await getJob(job.job_id))?.status ?? 'FAILURE';
}

/** Body of a job task: marks the job STARTED, runs, marks it SUCCESS. Failures reach the machine's Catch. */
export async function runJob<T>(jobId: string | undefined, work: () => Promise<T>): Promise<T> {
  if (jobId) await setJobStatus(jobId, 'STARTED');
  const result = await work();
  if (jobId) await setJobStatus(jobId, 'SUCCESS');
  return result;
}
