/**
 * Long polling of a job's status (`GET /api/jobs/{job_id}?wait=1`): while the job is unfinished the server holds the
 * answer and re-reads the job, so a page polling at the spec's 2 s (frontend/src/lib/polling.ts JOB_POLL_MS) still
 * sees a job end about when it ends, not up to 2 s later.
 */

/**
 * Longest the server holds one answer. Under the page's 2 s poll interval (a poll never outlasts the next one's
 * start) and far under API Gateway's 29 s and the function's timeout (domain/api-routes.ts).
 */
export const JOB_WAIT_MS = 1500;

/** How often a held request reads the job again (one DynamoDB read each). */
export const JOB_WAIT_READ_MS = 150;
