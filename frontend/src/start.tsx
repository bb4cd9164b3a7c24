import { type ReactNode, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { setAppStarter } from './lib/boot';
import { loadConfig } from './lib/config';
import { LandingShell } from './shell';

export interface Page {
  /** The landing without a wizard step. */
  bareLanding: boolean;
  /** #root holds a prerendered page. */
  prerendered: boolean;
  /** Path and query the page was loaded at: the app hydrates that page, and renders over it after a move. */
  loadedAt: string;
}

/** React's part of the start (main.tsx loads it): the landing shell, and the app's hand-over into #root (`el`). */
export function start(el: HTMLElement, { bareLanding, prerendered, loadedAt }: Page): void {
  loadConfig();

  let appModule: Promise<typeof import('./app')> | null = null;
  const loadApp = () => (appModule ??= import('./app'));

  /**
   * The app takes over #root: it hydrates a prerendered page once the router has the same page's code and data (so
   * the page is kept, not redrawn), and renders into the empty app shell or over the landing shell.
   */
  let render: ((app: ReactNode) => void) | null = null;
  function takeOver(app: ReactNode) {
    if (render) return render(app);
    const at = window.location.pathname + window.location.search;
    // The landing's document opened at a wizard step holds the landing, not the step: drawn over, never hydrated.
    const samePage = at === loadedAt && !loadedAt.startsWith('/?');
    if (prerendered && !bareLanding && samePage) {
      const root = hydrateRoot(el, app);
      render = (next) => root.render(next);
    } else {
      const root = createRoot(el);
      root.render(app);
      render = (next) => root.render(next);
    }
  }

  function startApp(to?: string) {
    loadApp().then(
      async ({ App, router, routerReady }) => {
        await routerReady();
        // The router read the address when its module first ran, which may be an early preload (focus or hover on
        // Get Started) before the visitor asked for a step: it moves there itself, so history stays the router's.
        const at = router.state.location;
        if (to && to !== at.pathname + at.search) await router.navigate(to);
        takeOver(
          <StrictMode>
            <App />
          </StrictMode>,
        );
      },
      (err: unknown) => {
        // A stale deployment can miss the chunk: a full load of the target fetches the new build.
        console.error('Failed to load the app', err);
        window.location.assign(to ?? window.location.href);
      },
    );
  }

  setAppStarter(startApp, () => void loadApp());

  if (bareLanding) {
    // Hydrating the prerendered landing keeps its DOM (and a visitor's focus or click on Get Started).
    const shell = (
      <StrictMode>
        <LandingShell />
      </StrictMode>
    );
    if (prerendered) {
      const root = hydrateRoot(el, shell);
      render = (next) => root.render(next);
    } else takeOver(shell);
  } else startApp();
}
