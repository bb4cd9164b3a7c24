import { contract } from '../../domain/contract';
import { HttpError, httpHandler, respond, parseBody } from '../lib/http';
import { createJob, setJobStatus } from '../lib/jobs';
import { pendingPreviews } from '../lib/renderer';
import { knownImage } from '../lib/requests';
import { settings } from '../lib/settings';
import { startExecution } from '../lib/workflows';

/** POST /api/process-thumbnail {image_hash} → {job_id}: previews of every style, for an allowed photo only. */
export const handler = httpHandler(async (event) => {
  const { image_hash: hash } = parseBody(event, contract['process-thumbnail'].request);
  const image = await knownImage(hash);
  if (image.moderation !== 'allowed') throw new HttpError(403, 'Image has not passed moderation.');
  // Every style previewed by its current renderer (or paused for today's budget): the job is done the moment it
  // exists, and no model is called again for the same photo.
  if (pendingPreviews(image).length === 0) {
    return respond('process-thumbnail', 200, { job_id: (await createJob('thumbnail', [hash], 'SUCCESS')).job_id });
  }
  const job = await createJob('thumbnail', [hash]);
  try {
    const executionArn = await startExecution(settings.jobsMachineArn, job.job_id, { kind: 'thumbnail', job_id: job.job_id, image_hash: hash });
    await setJobStatus(job.job_id, 'PENDING', { execution_arn: executionArn });
  } catch (err) {
    await setJobStatus(job.job_id, 'FAILURE', { error: `Could not start: ${(err as Error).message}` });
    throw new HttpError(503, 'Thumbnail generation could not be started. Please try again.');
  }
  return respond('process-thumbnail', 200, { job_id: job.job_id });
});
