import { buildFrontendIfStale } from '../../frontend/build/when-stale';
import { synthesizeLocal } from '../../local/template';

/**
 * The site tests need the built frontend; build it once, only when its sources changed. Then synthesize the stack once
 * into its cache (local/template.ts): otherwise every worker's first runtime synthesizes it at the same time.
 */
export default async function globalSetup(): Promise<void> {
  buildFrontendIfStale(() => {});
  try {
    synthesizeLocal('simulated');
  } catch (err) {
    // Each runtime synthesizes on its own and reports the error where it belongs, in its test.
    console.warn(`Template not cached ahead: ${(err as Error).message}`);
  }
}
