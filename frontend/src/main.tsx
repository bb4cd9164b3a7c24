/**
 * The page's only eager script, kept tiny. React and the app load when a page needs them: at once on the landing
 * (its shell is hydrated) and in the app shell (status and image pages); on a content page (pricing, legal, blog,
 * guides), which is complete as served, links included, only when the visitor acts, so reading costs no script.
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

if (bareLanding || !prerendered) void boot();
else {
  // Acting on the page (or a move in its history) starts the app: brand and lists from /api/config, in-page navigation.
  const acts = ['pointerdown', 'pointermove', 'keydown', 'touchstart', 'focusin', 'scroll', 'popstate'] as const;
  const start = () => {
    for (const a of acts) window.removeEventListener(a, start, true);
    void boot();
  };
  for (const a of acts) window.addEventListener(a, start, { capture: true, passive: true });
}
