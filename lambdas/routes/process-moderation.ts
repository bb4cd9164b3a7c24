import { contract } from '../../domain/contract';
import { HttpError, httpHandler, respond, parseBody } from '../lib/http';
import { createJob, setJobStatus } from '../lib/jobs';
import { knownImage } from '../lib/requests';
import { settings } from '../lib/settings';
import { startExecution } from '../lib/workflows';

/** POST /api/process-moderation {image_hashes} → {job_id}: moderation runs in the jobs state machine. */
export const handler = httpHandler(async (event) => {
  const { image_hashes: hashes } = parseBody(event, contract['process-moderation'].request);
  await Promise.all(hashes.map(knownImage));
  const job = await createJob('moderation', hashes);
  try {
    const executionArn = await startExecution(settings.jobsMachineArn, job.job_id, { kind: 'moderation', job_id: job.job_id, image_hashes: hashes });
    await setJobStatus(job.job_id, 'PENDING', { execution_arn: executionArn });
  } catch (err) {
    await setJobStatus(job.job_id, 'FAILURE', { error: `Could not start: ${(err as Error).message}` });
    throw new HttpError(503, 'Moderation could not be started. Please try again.');
  }
  return respond('process-moderation', 200, { job_id: job.job_id });
});
