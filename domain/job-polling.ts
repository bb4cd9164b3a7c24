/**
 * How the style step follows its jobs, both sides: the page polls `GET /api/jobs/{job_id}?wait=1` every JOB_POLL_MS,
 * and while the job is unfinished the server holds each answer and re-reads the job, so a job is seen about when it
 * ends, not up to 2 s later. Here, not in the page's polling module, because the server's cap must stay under the
 * page's interval and the articles state the interval (frontend/src/blog/facts.ts).
 */

/** The spec's moderation and thumbnail polling: 2000 ms. */
export const JOB_POLL_MS = 2000;

/**
 * Longest the server holds one answer: a job that ends after it is seen at the next poll, so it is close to JOB_POLL_MS,
 * leaving 200 ms for the answer's way back so the next poll still starts on the 2 s schedule. Far under API Gateway's
 * 29 s and the function's timeout (domain/api-routes.ts).
 */
export const JOB_WAIT_MS = 1800;

/** How often a held request reads the job again (one DynamoDB read each). */
export const JOB_WAIT_READ_MS = 150;
