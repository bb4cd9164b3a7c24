import { contract } from '../../domain/contract';
import { HttpError, httpHandler, respond, parseBody } from '../lib/http';
import { createJob, setJobStatus } from '../lib/jobs';
import { verdictBinding } from '../lib/images';
import { bindingHolds } from '../lib/media';
import { knownImage } from '../lib/requests';
import { settings } from '../lib/settings';
import { startExecution } from '../lib/workflows';

/**
 * POST /api/process-moderation {image_hashes} → {job_id}: moderation runs in the jobs state machine. Verdicts are made
 * once per image: when every photo already has one, still bound to the object stored, the job is done the moment it
 * exists (reads only: no execution, no model call). Otherwise the execution reuses what it can, photo by photo.
 */
export const handler = httpHandler(async (event) => {
  const { image_hashes: hashes } = parseBody(event, contract['process-moderation'].request);
  const images = await Promise.all(hashes.map(knownImage));
  const standing = await Promise.all(images.map(async (image) => {
    const bound = image.moderation === 'allowed' || image.moderation === 'rejected' ? verdictBinding(image) : null;
    return bound !== null && (await bindingHolds(image.image_hash, bound)) === true;
  }));
  if (standing.every(Boolean)) {
    return respond('process-moderation', 200, { job_id: (await createJob('moderation', hashes, 'SUCCESS')).job_id });
  }
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
