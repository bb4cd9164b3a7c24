import { clip, httpHandler, respond, notFound, pathParam } from '../lib/http';
import { getJob, setJobStatus } from '../lib/jobs';
import { executionStatus } from '../lib/workflows';

const JOB_ID = /^[0-9a-f-]{36}$/;
/** A job still unfinished after this long is checked against its execution, so a crash cannot leave it pending. */
const RECONCILE_AFTER_MS = 30_000;

/** GET /api/jobs/{job_id} → the status value itself: "PENDING" | "STARTED" | "SUCCESS" | "FAILURE". */
export const handler = httpHandler(async (event) => {
  const jobId = pathParam(event, 'job_id');
  const job = JOB_ID.test(jobId) ? await getJob(jobId) : null;
  if (!job) throw notFound(`Job ${clip(jobId)} not found.`);
  if ((job.status === 'PENDING' || job.status === 'STARTED') && job.execution_arn && Date.now() - Date.parse(job.updated_at) > RECONCILE_AFTER_MS) {
    const execution = await executionStatus(job.execution_arn);
    if (['FAILED', 'TIMED_OUT', 'ABORTED'].includes(execution.status)) {
      await setJobStatus(job.job_id, 'FAILURE', { error: execution.cause || execution.error || `Execution ${execution.status}` });
      return respond('get-job', 200, 'FAILURE');
    }
  }
  return respond('get-job', 200, job.status);
});
