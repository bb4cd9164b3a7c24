import { buildFrontendIfStale } from '../../local/frontend-build';

/** The site tests need the built frontend; build it once, only when its sources changed. */
export default async function globalSetup(): Promise<void> {
  buildFrontendIfStale(() => {});
}
