import { StrictMode } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { setAppStarter } from './lib/boot';
import { loadConfig } from './lib/config';
import { LandingShell } from './Shell';
import './styles.css';

loadConfig();

const el = document.getElementById('root');
if (!el) throw new Error('Missing #root element');
// The landing shell is only for the bare landing page; a wizard step in the URL (a refresh, Back, a return from
// the checkout page) opens the app on that step.
const bareLanding = window.location.pathname === '/' && !new URLSearchParams(window.location.search).has('step');
// The prerendered landing is the shell's own markup: hydrating it keeps the DOM (and a visitor's focus or click on
// Get Started) instead of replacing it. Other prerendered pages are rendered over once the router is ready.
const root: Root =
  bareLanding && el.hasChildNodes()
    ? hydrateRoot(
        el,
        <StrictMode>
          <LandingShell />
        </StrictMode>,
      )
    : createRoot(el);

let appModule: Promise<typeof import('./app')> | null = null;
const loadApp = () => (appModule ??= import('./app'));

function startApp(to?: string) {
  loadApp().then(
    async ({ App, router, routerReady }) => {
      // A prerendered page stays on screen until the router has the same page ready to render over it.
      await routerReady();
      // The router read the address when its module first ran, which may be an early preload (focus or hover on
      // Get Started) before the visitor asked for a step: it moves there itself, so history stays the router's.
      const at = router.state.location;
      if (to && to !== at.pathname + at.search) await router.navigate(to);
      root.render(
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

if (!bareLanding) startApp();
else if (!el.hasChildNodes()) {
  root.render(
    <StrictMode>
      <LandingShell />
    </StrictMode>,
  );
}
