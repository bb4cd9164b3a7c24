import { STYLE_IDS } from '../../domain/styles';
import { previewsDuringModeration } from '../lib/early-previews';
import { getImage } from '../lib/images';
import { runJob } from '../lib/jobs';
import { mapLimit, moderateImage, uploadHeaderFits } from '../lib/moderation';
import { logger } from '../lib/observability';
import { isEngineStyle, makePreviews } from '../lib/previews';
import { pendingPreviews } from '../lib/renderer';
import { taskHandler } from '../lib/task';

export interface ModerateInput {
  job_id?: string;
  image_hashes: string[];
}

/**
 * Step Functions task: moderates every photo of a job; the verdicts are in the images table.
 *
 * The style step shows the engine previews of the first allowed photo next: they are made inside this job, so the
 * page finds them with the verdict. The first photo's are rendered while it is being moderated and kept only if it
 * is allowed (lambdas/lib/early-previews.ts); if it is refused and another photo is allowed, that one's are made
 * after the verdicts. Not the generative ones: a model call takes seconds and would hold back the verdict; the
 * previews job makes them while the engine tiles show. Best effort: a failure here only means the previews job
 * does the work. Nor on a photo whose header is unfit (too small, too long and narrow): nothing is drawn before its
 * verdict refuses it.
 */
async function run(input: ModerateInput) {
  return runJob(input.job_id, async () => {
    const [first] = input.image_hashes;
    const verdicts = mapLimit(input.image_hashes, 4, moderateImage);
    // Only on a photo whose header says the models can draw it: a 1:600 strip never reaches the engine either.
    const early = first
      ? uploadHeaderFits(first)
          .then((fits) =>
            fits
              ? previewsDuringModeration(
                  first,
                  verdicts.then((o) => o[0].moderation),
                )
              : verdicts.then(() => []),
          )
          .catch((err: Error) => {
            logger.warn('early previews failed', { image_hash: first, error: err });
            return [];
          })
      : Promise.resolve([]);
    // Settled, not all: a verdict that failed ends the job only once the early previews have ended (kept or
    // deleted), so nothing of an unjudged photo is left stored or still running after it.
    const [judged] = await Promise.allSettled([verdicts, early]);
    if (judged.status === 'rejected') throw judged.reason;
    const outcomes = judged.value;
    const allowed = outcomes.filter((o) => o.moderation === 'allowed').map((o) => o.image_hash);
    if (allowed[0] && allowed[0] !== first) {
      const engineStyles = STYLE_IDS.filter(isEngineStyle);
      if (pendingPreviews(await getImage(allowed[0]), engineStyles).length) {
        await makePreviews(allowed[0], { styles: engineStyles, budget: true }).catch((err) =>
          logger.warn('early previews failed', { image_hash: allowed[0], error: err as Error }),
        );
      }
    }
    return {
      allowed,
      refused: outcomes
        .filter((o) => o.moderation !== 'allowed')
        .map((o) => ({ image_hash: o.image_hash, moderation: o.moderation })),
    };
  });
}

export const handler = taskHandler('moderate-images', run);
