import { isServerId } from '../../domain/contract';
import { clip, httpHandler, notFound, pathParam, respond } from '../lib/http';
import { currentJobStatus, getJob } from '../lib/jobs';

/** GET /api/jobs/{job_id} → the status value itself: "PENDING" | "STARTED" | "SUCCESS" | "FAILURE". */
export const handler = httpHandler(async (event) => {
  const jobId = pathParam(event, 'job_id');
  const job = isServerId(jobId) ? await getJob(jobId) : null;
  if (!job) throw notFound(`Job ${clip(jobId)} not found.`);
  return respond('get-job', 200, await currentJobStatus(job));
});
