/**
 * Where the repository's folders are on disk, for the two programs that read them: the CDK app (bundling the
 * handlers, deploying the site) and the local runtime (loading the handlers, serving the site). Never bundled
 * into a handler: `__dirname` is only the repository's domain/ folder when run from source.
 */
import * as path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..');

/** The built site (`npm run build:frontend`). */
export const FRONTEND_DIST = path.join(REPO_ROOT, 'frontend', 'dist');
