import { runJob } from '../lib/jobs';
import { makePreviews } from '../lib/previews';
import { taskHandler } from '../lib/task';

export interface PreviewsInput {
  job_id?: string;
  image_hash: string;
}

/** Step Functions task: the previews job for one allowed photo (free previews: the daily budget applies). */
async function run(input: PreviewsInput) {
  return runJob(input.job_id, () => makePreviews(input.image_hash, { budget: true }));
}

export const handler = taskHandler('make-previews', run);
