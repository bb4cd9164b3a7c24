import { getJob, runJob } from '../lib/jobs';
import { makePreviews, PREVIEW_CAPACITY_WAIT_MS } from '../lib/previews';
import { taskHandler } from '../lib/task';

export interface PreviewsInput {
  job_id?: string;
  image_hash: string;
}

/**
 * Step Functions task: the previews job for one allowed photo (free previews: the daily budget applies). A generative
 * style that finds no model capacity is retried by the machine for PREVIEW_CAPACITY_WAIT_MS from the job's creation
 * (every retry is a new run, so the bound is counted from the job record), then recorded busy.
 */
async function run(input: PreviewsInput) {
  const job = input.job_id ? await getJob(input.job_id) : null;
  const waitForCapacityUntil = job ? Date.parse(job.created_at) + PREVIEW_CAPACITY_WAIT_MS : undefined;
  return runJob(input.job_id, () => makePreviews(input.image_hash, { budget: true, waitForCapacityUntil }));
}

export const handler = taskHandler('make-previews', run);
