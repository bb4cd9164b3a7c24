import { HttpError, httpHandler, json, jsonBody } from '../lib/http';
import { createJob, setJobStatus } from '../lib/jobs';
import { imageHashList, knownImage } from '../lib/requests';
import { settings } from '../lib/settings';
import { startExecution } from '../lib/workflows';

/** POST /api/process-moderation {image_hashes} → {job_id}: moderation runs in the jobs state machine. */
export const handler = httpHandler(async (event) => {
  const hashes = imageHashList(jsonBody(event).image_hashes, 'image_hashes');
  await Promise.all(hashes.map(knownImage));
  const job = await createJob('moderation', hashes);
  try {
    const executionArn = await startExecution(settings.jobsMachineArn, job.job_id, { kind: 'moderation', job_id: job.job_id, image_hashes: hashes });
    await setJobStatus(job.job_id, 'PENDING', { execution_arn: executionArn });
  } catch (err) {
    await setJobStatus(job.job_id, 'FAILURE', { error: `Could not start: ${(err as Error).message}` });
    throw new HttpError(503, 'Moderation could not be started. Please try again.');
  }
  return json(200, { job_id: job.job_id });
});
