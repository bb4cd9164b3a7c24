/**
 * Toasts sit at the bottom of the screen; on a phone that is where a form's field often is (the order step's e-mail).
 * When a toast appears, or the window changes size, and it would cover a form field, the page gets room at its end
 * and scrolls the field above the toasts. Together with clearing toasts on a step change (HomePage), no toast
 * covers a field the visitor needs.
 */
const FIELDS = 'input:not([type=hidden]):not([type=file]), textarea, select';

function overlaps(a: DOMRect, b: { top: number; bottom: number; left: number; right: number }): boolean {
  return a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top;
}

export function keepToastsClearOfFields(): () => void {
  let frame = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = () => {
    frame = 0;
    const toasts = [...document.querySelectorAll('[data-sonner-toast]')]
      .map((t) => t.getBoundingClientRect())
      .filter((r) => r.height > 0 && r.width > 0);
    if (toasts.length === 0) {
      document.body.style.removeProperty('padding-bottom');
      return;
    }
    const area = {
      top: Math.min(...toasts.map((r) => r.top)),
      bottom: Math.max(...toasts.map((r) => r.bottom)),
      left: Math.min(...toasts.map((r) => r.left)),
      right: Math.max(...toasts.map((r) => r.right)),
    };
    let push = 0;
    for (const field of document.querySelectorAll<HTMLElement>(FIELDS)) {
      const r = field.getBoundingClientRect();
      if (r.height === 0 || r.width === 0) continue;
      if (overlaps(r, area)) push = Math.max(push, r.bottom - area.top + 12);
    }
    if (push > 0) {
      // Room at the page's end so even the last field can scroll clear of the toasts.
      document.body.style.paddingBottom = `${Math.ceil(window.innerHeight - area.top + 16)}px`;
      window.scrollBy({ top: push, behavior: 'instant' as ScrollBehavior });
    }
  };
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(check);
    // Again once the toast's entry animation has settled.
    clearTimeout(timer);
    timer = setTimeout(() => requestAnimationFrame(check), 450);
  };
  const observer = new MutationObserver(schedule);
  observer.observe(document.body, { childList: true, subtree: true });
  window.addEventListener('resize', schedule);
  return () => {
    observer.disconnect();
    window.removeEventListener('resize', schedule);
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    document.body.style.removeProperty('padding-bottom');
  };
}
