import { useEffect, useRef } from 'react';

/**
 * Runs `tick` once immediately, then every `intervalMs` after the previous tick finished, until a
 * tick returns 'stop', `enabled` turns false, or the component unmounts. Each tick gets an
 * AbortSignal that is aborted on unmount.
 */
export function usePolling(
  tick: (signal: AbortSignal) => Promise<'stop' | 'continue'>,
  intervalMs: number,
  enabled = true,
  key: unknown = undefined,
): void {
  const tickRef = useRef(tick);
  tickRef.current = tick;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` restarts polling for a new subject; `tick` is read through a ref
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      let next: 'stop' | 'continue';
      try {
        next = await tickRef.current(controller.signal);
      } catch {
        next = 'stop';
      }
      if (next === 'continue' && !controller.signal.aborted) timer = setTimeout(run, intervalMs);
    };
    void run();
    return () => {
      controller.abort();
      if (timer) clearTimeout(timer);
    };
  }, [enabled, intervalMs, key]);
}
