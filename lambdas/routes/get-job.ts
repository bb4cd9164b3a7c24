import { contract } from '../../domain/contract';
import { isServerId } from '../../domain/contract-shapes';
import { JOB_WAIT_MS } from '../../domain/job-polling';
import { clip, httpHandler, notFound, parseWith, pathParam, respond } from '../lib/http';
import { settledJobStatus } from '../lib/job-wait';
import { getJob } from '../lib/jobs';
import { callerOwner } from '../lib/owners';

/**
 * GET /api/jobs/{job_id}[?wait=1] → the status value itself: "PENDING" | "STARTED" | "SUCCESS" | "FAILURE". With
 * wait=1 an unfinished job's answer is held until it ends or JOB_WAIT_MS passes (the page polls every 2 s).
 */
export const handler = httpHandler(async (event) => {
  const jobId = pathParam(event, 'job_id');
  const { wait } = parseWith(contract['get-job'].query, event.queryStringParameters ?? {});
  const job = isServerId(jobId) ? await getJob(jobId) : null;
  // Only the owner who started a job sees it; to anyone else it does not exist.
  if (!job || job.owner !== callerOwner(event)) throw notFound(`Job ${clip(jobId)} not found.`);
  return respond('get-job', 200, await settledJobStatus(job, wait === '1' ? JOB_WAIT_MS : 0));
});
