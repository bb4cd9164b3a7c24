import { STYLE_IDS } from '../../domain/styles';
import { getImage } from '../lib/images';
import { runJob } from '../lib/jobs';
import { mapLimit, moderateImage } from '../lib/moderation';
import { logger } from '../lib/observability';
import { makePreviews } from '../lib/previews';
import { pendingPreviews, rendererFor } from '../lib/renderer';
import { taskHandler } from '../lib/task';

export interface ModerateInput {
  job_id?: string;
  image_hashes: string[];
}

/** Step Functions task: moderates every photo of a job; the verdicts are in the images table. */
async function run(input: ModerateInput) {
  return runJob(input.job_id, async () => {
    const outcomes = await mapLimit(input.image_hashes, 4, moderateImage);
    const allowed = outcomes.filter((o) => o.moderation === 'allowed').map((o) => o.image_hash);
    // The style step asks for the first allowed photo's previews next: make the engine's now, inside this job, so
    // that request finds them ready (the page polls every 2 s; this saves one round). Not the generative ones: a
    // model call takes seconds and would hold back the verdict; the previews job makes them while the tiles wait.
    // Best effort: a failure here only means the previews job does the work.
    const engineStyles = STYLE_IDS.filter((s) => rendererFor(s).kind === 'engine');
    if (allowed[0]) {
      const first = await getImage(allowed[0]);
      if (pendingPreviews(first, engineStyles).length) {
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
