/**
 * Toasts sit at the bottom of the screen; on a phone that is where a form's field often is (the order step's e-mail).
 * When a toast appears, or the window changes size, and it would cover a form field, the page gets room at its end
 * and scrolls the field above the toasts. When the visitor scrolls a field under a toast, or focus moves to one (Tab,
 * or the browser scrolling a focused field into view), the page is theirs to move: the toasts are dismissed instead.
 * Together with clearing toasts on a step change (HomePage), no toast stays over a field the visitor can see.
 */
import { toast } from 'sonner';

const FIELDS = 'input:not([type=hidden]):not([type=file]), textarea, select';
// A toast on its way out no longer counts: it is transparent and gone a moment later.
const TOASTS = '[data-sonner-toast]:not([data-removed=true])';

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

function overlaps(a: Box, b: Box): boolean {
  return a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top;
}

/** The box around the given toasts' boxes, or null when there are none. */
function toastArea(toasts: DOMRect[]): Box | null {
  if (toasts.length === 0) return null;
  return {
    top: Math.min(...toasts.map((r) => r.top)),
    bottom: Math.max(...toasts.map((r) => r.bottom)),
    left: Math.min(...toasts.map((r) => r.left)),
    right: Math.max(...toasts.map((r) => r.right)),
  };
}

/** How far the page must scroll up for every field under the toasts to clear them (0: none is covered). */
function coveredBy(area: Box): number {
  let push = 0;
  for (const field of document.querySelectorAll<HTMLElement>(FIELDS)) {
    const r = field.getBoundingClientRect();
    if (r.height === 0 || r.width === 0) continue;
    if (overlaps(r, area)) push = Math.max(push, r.bottom - area.top + 12);
  }
  return push;
}

export function keepToastsClearOfFields(): () => void {
  let frame = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The visitor scrolled or moved focus since the last check: a covered field is theirs, so the toasts give way.
  let visitorMoved = false;
  // Where our own scrollBy left the page: the scroll event it causes is not the visitor's.
  let ownScroll: number | null = null;
  // Toasts already checked once: a new one always gets room, even if the visitor moved in the same frame.
  const seen = new WeakSet<Element>();
  const check = () => {
    frame = 0;
    const showing = [...document.querySelectorAll(TOASTS)]
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.height > 0 && box.width > 0);
    const fresh = showing.some(({ el }) => !seen.has(el));
    for (const { el } of showing) seen.add(el);
    const dismiss = visitorMoved && !fresh;
    visitorMoved = false;
    const area = toastArea(showing.map(({ box }) => box));
    if (!area) {
      document.body.style.removeProperty('padding-bottom');
      return;
    }
    const push = coveredBy(area);
    if (push === 0) return;
    if (dismiss) {
      toast.dismiss();
      return;
    }
    // Room at the page's end so even the last field can scroll clear of the toasts.
    document.body.style.paddingBottom = `${Math.ceil(window.innerHeight - area.top + 16)}px`;
    window.scrollBy({ top: push, behavior: 'instant' as ScrollBehavior });
    ownScroll = window.scrollY;
  };
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(check);
    // Again once the toast's entry animation has settled.
    clearTimeout(timer);
    timer = setTimeout(() => requestAnimationFrame(check), 450);
  };
  const onVisitorMove = () => {
    visitorMoved = true;
    if (!frame) frame = requestAnimationFrame(check);
  };
  const onFocus = (e: FocusEvent) => {
    if (e.target instanceof Element && e.target.matches(FIELDS)) onVisitorMove();
  };
  const onScroll = () => {
    const own = ownScroll !== null && Math.abs(window.scrollY - ownScroll) < 1;
    ownScroll = null;
    // A toast still sliding in may cover the field again after our push; the settle check pushes once more.
    if (!own) onVisitorMove();
  };
  const observer = new MutationObserver(schedule);
  observer.observe(document.body, { childList: true, subtree: true });
  window.addEventListener('resize', schedule);
  window.addEventListener('scroll', onScroll, { passive: true });
  document.addEventListener('focusin', onFocus);
  return () => {
    observer.disconnect();
    window.removeEventListener('resize', schedule);
    window.removeEventListener('scroll', onScroll);
    document.removeEventListener('focusin', onFocus);
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    document.body.style.removeProperty('padding-bottom');
  };
}
