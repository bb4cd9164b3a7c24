import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../../domain/repo-paths';

/**
 * Every route and task handler has a handler test beside its kind (test/lambdas/routes/<name>.test.ts for
 * lambdas/routes/<name>.ts): its behaviour, errors and idempotency are held there, not only by the journeys through
 * the whole runtime.
 */
describe('handler tests', () => {
  it.each(['routes', 'tasks'])('every file of lambdas/%s has its test', (kind) => {
    const handlers = fs.readdirSync(path.join(REPO_ROOT, 'lambdas', kind)).filter((f) => f.endsWith('.ts'));
    expect(handlers.length).toBeGreaterThan(0);
    const missing = handlers
      .map((f) => path.join('test', 'lambdas', kind, f.replace(/\.ts$/, '.test.ts')))
      .filter((t) => !fs.existsSync(path.join(REPO_ROOT, t)));
    expect(missing).toEqual([]);
  });
});
