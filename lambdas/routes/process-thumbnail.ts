import { contract } from '../../domain/contract';
import { HttpError, httpHandler, parseBody, respond } from '../lib/http';
import { createJob, startJob } from '../lib/jobs';
import { callerOwner, ownedImage } from '../lib/owners';
import { pendingPreviews } from '../lib/renderer';

/** POST /api/process-thumbnail {image_hash} → {job_id}: previews of every style, for an allowed photo's owner only. */
export const handler = httpHandler(async (event) => {
  const { image_hash: hash } = parseBody(event, contract['process-thumbnail'].request);
  const image = await ownedImage(event, hash);
  const owner = callerOwner(event)!;
  if (image.moderation !== 'allowed') throw new HttpError(403, 'Image has not passed moderation.');
  // Every style previewed by its current renderer (or paused for today's budget): the job is done the moment it
  // exists, and no model is called again for the same photo.
  if (pendingPreviews(image).length === 0) {
    return respond('process-thumbnail', 200, {
      job_id: (await createJob('thumbnail', [hash], owner, 'SUCCESS')).job_id,
    });
  }
  const job = await startJob('thumbnail', [hash], owner, { image_hash: hash });
  return respond('process-thumbnail', 200, { job_id: job.job_id });
});
