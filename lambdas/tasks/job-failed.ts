import { setJobStatus } from '../lib/jobs';
import { logger } from '../lib/observability';
import { taskHandler } from '../lib/task';

export interface JobFailedInput {
  job_id?: string;
  error?: { Error?: string; Cause?: string };
}

/** Step Functions catch handler: the job ends FAILURE with a readable reason, so nothing waits forever. */
async function run(input: JobFailedInput) {
  if (!input.job_id) return { recorded: false };
  const reason = describeFailure(input.error);
  logger.error('job failed', { reason });
  return { recorded: await setJobStatus(input.job_id, 'FAILURE', { error: reason }) };
}

/** Lambda errors arrive as a JSON Cause ({errorType, errorMessage}); other failures as plain text. */
export function describeFailure(error: JobFailedInput['error']): string {
  if (!error) return 'Unknown failure';
  try {
    const cause = JSON.parse(error.Cause ?? '') as { errorMessage?: string };
    if (cause.errorMessage) return cause.errorMessage;
  } catch {
    // not JSON: use it as it is
  }
  return error.Cause || error.Error || 'Unknown failure';
}

export const handler = taskHandler('job-failed', run);
