import { TASK_ENV } from './tasks';

/**
 * Imported first by the task tests (test/lambdas/tasks/): the stack's environment is in place before any handler
 * module loads, as Lambda sets it before the code runs.
 */
Object.assign(process.env, TASK_ENV);
