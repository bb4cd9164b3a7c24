import { contract } from '../../domain/contract';
import { busyAnswer, giveBack, takeCaps } from '../lib/caps';
import { httpHandler, parseBody, respond } from '../lib/http';
import { passBinding } from '../lib/images';
import { createJob, startJob } from '../lib/jobs';
import { bindingHolds } from '../lib/media';
import { callerOwner } from '../lib/owners';
import { requireOwnership } from '../lib/proofs';
import { knownImage } from '../lib/requests';

/**
 * POST /api/process-moderation {image_hashes} → {job_id}, for the photos' owner only: moderation runs in the jobs state machine. Verdicts are made
 * once per image: when every photo already has one (a pass still bound to the object stored), the job is done the moment it
 * exists (reads only: no execution, no model call). Otherwise the execution reuses what it can, photo by photo.
 */
export const handler = httpHandler(async (event) => {
  const { image_hashes: hashes } = parseBody(event, contract['process-moderation'].request);
  await requireOwnership(event, hashes);
  const owner = callerOwner(event)!;
  const images = await Promise.all(hashes.map(knownImage));
  const standing = await Promise.all(
    images.map(async (image) => {
      // A refusal stands without the photo (lambdas/lib/moderation.ts); a pass only while its object is stored.
      if (image.moderation === 'rejected') return true;
      const bound = passBinding(image);
      return bound !== null && (await bindingHolds(image.image_hash, bound)) === true;
    }),
  );
  if (standing.every(Boolean)) {
    return respond('process-moderation', 200, {
      job_id: (await createJob('moderation', hashes, owner, 'SUCCESS')).job_id,
    });
  }
  // Photos without a standing verdict go to Rekognition: counted against the global cap, or a 429 (never a 5xx).
  const cap = await takeCaps({ moderation: standing.filter((s) => !s).length });
  if (!cap.ok) return busyAnswer(cap);
  try {
    const job = await startJob('moderation', hashes, owner, { image_hashes: hashes });
    return respond('process-moderation', 200, { job_id: job.job_id });
  } catch (err) {
    // Not started: no photo goes to Rekognition, and the caps count what was done, not attempts.
    await giveBack(cap);
    throw err;
  }
});
