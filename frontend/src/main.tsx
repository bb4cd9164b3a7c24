import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { setAppStarter } from './lib/boot';
import { loadConfig } from './lib/config';
import { LandingShell } from './Shell';
import './styles.css';

loadConfig();

const el = document.getElementById('root');
if (!el) throw new Error('Missing #root element');
const root = createRoot(el);

let appModule: Promise<typeof import('./app')> | null = null;
const loadApp = () => (appModule ??= import('./app'));

function startApp(to?: string) {
  if (to && to !== window.location.pathname + window.location.search) window.history.pushState(null, '', to);
  loadApp().then(
    async ({ App, routerReady }) => {
      // A prerendered page stays on screen until the router has the same page ready to render over it.
      await routerReady();
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

// The landing shell is only for the bare landing page; a wizard step in the URL (a refresh, Back, a return from
// the checkout page) opens the app on that step.
if (window.location.pathname === '/' && !new URLSearchParams(window.location.search).has('step')) {
  root.render(
    <StrictMode>
      <LandingShell />
    </StrictMode>,
  );
} else {
  startApp();
}
