import { contract } from '../../domain/contract';
import { HttpError, httpHandler, parseBody, respond } from '../lib/http';
import { createJob, startJob } from '../lib/jobs';
import { pendingPreviews } from '../lib/renderer';
import { knownImage } from '../lib/requests';

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
  const job = await startJob('thumbnail', [hash], { image_hash: hash });
  return respond('process-thumbnail', 200, { job_id: job.job_id });
});
