/**
 * The page's only eager script, kept tiny. React and the app load when a page needs them: at once in the app shell
 * (status and image pages, empty until the app draws them); on a prerendered page (the landing, pricing, legal, blog,
 * guides), which is complete as served, links and Get Started included, when the visitor acts, so reading costs no
 * script. Then the landing shell or the app hydrates the page in place.
 */
import './styles.css';

const el = document.getElementById('root');
if (!el) throw new Error('Missing #root element');
// The landing shell is only for the bare landing page; a wizard step in the URL (a refresh, Back, a return from
// the checkout page, a tap on Get Started before the script ran) opens the app on that step.
const bareLanding = window.location.pathname === '/' && !new URLSearchParams(window.location.search).has('step');
const prerendered = el.hasChildNodes();
const loadedAt = window.location.pathname + window.location.search;

const boot = () =>
  import('./start').then(
    (m) => m.start(el, { bareLanding, prerendered, loadedAt }),
    (err: unknown) => {
      // A stale deployment can miss the chunk: a full load fetches the new build.
      console.error('Failed to load the app', err);
      window.location.reload();
    },
  );

// The app shell, and the landing's document opened at a wizard step, need the app to show anything of their own.
if (!prerendered || (window.location.pathname === '/' && !bareLanding)) void boot();
else {
  // Acting on the page (or a move in its history) starts the app: brand and lists from /api/config, in-page navigation.
  const acts = ['pointerdown', 'pointermove', 'keydown', 'touchstart', 'focusin', 'scroll', 'popstate'] as const;
  const start = () => {
    for (const a of acts) window.removeEventListener(a, start, true);
    void boot();
  };
  for (const a of acts) window.addEventListener(a, start, { capture: true, passive: true });
}
