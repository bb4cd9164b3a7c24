/**
 * Hand-over from the router-free landing shell to the full app.
 *
 * The landing page ('/') first renders a light shell (React only): React 19's DOM renderer alone is
 * ~65 KB gzip, so the router, toasts and wizard steps are loaded only when the visitor acts
 * (Get Started, or any link). The shell calls `startApp`, which loads the app chunk and replaces the
 * shell; `takeInitialStep` lets the wizard open on the step the visitor asked for.
 */

let initialStep = 0;
let starter: ((to?: string) => void) | null = null;
let preloader: (() => void) | null = null;

export function setAppStarter(start: (to?: string) => void, preload: () => void): void {
  starter = start;
  preloader = preload;
}

/** Starts the full app, optionally at another path (pushed onto history first) or wizard step. */
export function startApp(opts: { to?: string; step?: number } = {}): void {
  if (opts.step !== undefined) initialStep = opts.step;
  starter?.(opts.to);
}

/** Warms the app chunk on intent (hover, focus, touch) so the hand-over is instant. */
export function preloadApp(): void {
  preloader?.();
}

/** The wizard step to open on first render (consumed once). */
export function takeInitialStep(): number {
  const step = initialStep;
  initialStep = 0;
  return step;
}
