import { runJob } from '../lib/jobs';
import { mapLimit, moderateImage } from '../lib/moderation';

export interface ModerateInput { job_id?: string; image_hashes: string[] }

/** Step Functions task: moderates every photo of a job or an order; the verdicts are in the images table. */
export async function handler(input: ModerateInput) {
  return runJob(input.job_id, async () => {
    const outcomes = await mapLimit(input.image_hashes, 4, moderateImage);
    return {
      allowed: outcomes.filter((o) => o.moderation === 'allowed').map((o) => o.image_hash),
      refused: outcomes.filter((o) => o.moderation !== 'allowed').map((o) => ({ image_hash: o.image_hash, moderation: o.moderation })),
    };
  });
}
