/**
 * Hand-over from the router-free landing shell to the full app.
 *
 * The landing page ('/') first renders a light shell (React only): React 19's DOM renderer alone is
 * ~65 KB gzip, so the router, toasts and wizard steps are loaded only when the visitor acts
 * (Get Started, or any link). The shell calls `startApp`, which loads the app chunk and replaces the
 * shell, at the path the visitor asked for (a wizard step is part of the URL, `/?step=upload`).
 */

let starter: ((to?: string) => void) | null = null;
let preloader: (() => void) | null = null;

export function setAppStarter(start: (to?: string) => void, preload: () => void): void {
  starter = start;
  preloader = preload;
}

/** Starts the full app, optionally at another path (pushed onto history first). */
export function startApp(opts: { to?: string } = {}): void {
  starter?.(opts.to);
}

/** Warms the app chunk on intent (hover, focus, touch) so the hand-over is instant. */
export function preloadApp(): void {
  preloader?.();
}
