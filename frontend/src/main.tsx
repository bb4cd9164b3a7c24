import { type ReactNode, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { setAppStarter } from './lib/boot';
import { loadConfig } from './lib/config';
import { LandingShell } from './shell';
import './styles.css';

loadConfig();

const el = document.getElementById('root');
if (!el) throw new Error('Missing #root element');
// The landing shell is only for the bare landing page; a wizard step in the URL (a refresh, Back, a return from
// the checkout page, a tap on Get Started before this script ran) opens the app on that step.
const bareLanding = window.location.pathname === '/' && !new URLSearchParams(window.location.search).has('step');
// Every other prerendered page (pricing, legal, blog, guides) is complete as served, links included.
const prerendered = el.hasChildNodes();

let appModule: Promise<typeof import('./app')> | null = null;
const loadApp = () => (appModule ??= import('./app'));

/**
 * The app takes over #root: it hydrates a prerendered page once the router has the same page's code and data (so
 * the page is kept, not redrawn), and renders into the empty app shell or over the landing shell.
 */
let render: ((app: ReactNode) => void) | null = null;
function takeOver(app: ReactNode) {
  if (render) return render(app);
  if (prerendered && !bareLanding) {
    const root = hydrateRoot(el as HTMLElement, app);
    render = (next) => root.render(next);
  } else {
    const root = createRoot(el as HTMLElement);
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
} else if (prerendered) {
  // A content page needs no script to be read or left: the app (brand and lists from /api/config, in-page
  // navigation) starts when the visitor acts or the browser has nothing else to do, not while the page loads.
  const acts = ['pointerdown', 'pointermove', 'keydown', 'touchstart', 'focusin', 'scroll'] as const;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const a of acts) window.removeEventListener(a, start, true);
    startApp();
  };
  for (const a of acts) window.addEventListener(a, start, { capture: true, passive: true, once: true });
  const whenIdle = () =>
    'requestIdleCallback' in window ? window.requestIdleCallback(start, { timeout: 5000 }) : setTimeout(start, 1);
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
} else startApp();
