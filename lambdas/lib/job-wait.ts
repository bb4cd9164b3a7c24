import { JOB_WAIT_READ_MS } from '../../domain/job-polling';
import { currentJobStatus, getJob, type JobRecord, type JobStatus } from './jobs';

const isFinal = (status: JobStatus) => status === 'SUCCESS' || status === 'FAILURE';
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The job's status once it is final, or as it is when `capMs` has passed (long polling, domain/job-polling.ts). Each
 * read goes through currentJobStatus, so a stale job is still checked against its execution. A job that vanishes
 * meanwhile (its TTL) answers its last status: the next poll sees the 404.
 */
export async function settledJobStatus(job: JobRecord, capMs: number): Promise<JobStatus> {
  const deadline = Date.now() + capMs;
  let status = await currentJobStatus(job);
  while (!isFinal(status) && Date.now() < deadline) {
    await pause(Math.min(JOB_WAIT_READ_MS, deadline - Date.now()));
    const again = await getJob(job.job_id);
    if (!again) break;
    status = await currentJobStatus(again);
  }
  return status;
}
