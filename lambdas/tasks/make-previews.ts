import { runJob } from '../lib/jobs';
import { makePreviews } from '../lib/previews';

export interface PreviewsInput { job_id?: string; image_hash: string }

/** Step Functions task: the previews job for one allowed photo (free previews: the daily budget applies). */
export async function handler(input: PreviewsInput) {
  return runJob(input.job_id, () => makePreviews(input.image_hash, { budget: true }));
}
