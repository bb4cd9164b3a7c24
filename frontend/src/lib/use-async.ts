import { useEffect, useState } from 'react';

export type AsyncState<T> = { status: 'loading' } | { status: 'error'; error: string } | { status: 'ready'; data: T };

/** Loads data once per key; the request is aborted when the key changes or the component unmounts. */
export function useAsync<T>(
  load: (signal: AbortSignal) => Promise<T>,
  key: string,
  fallbackError: string,
): AsyncState<T> {
  const [state, setState] = useState<AsyncState<T>>({ status: 'loading' });
  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once per key; `load` and `fallbackError` are new closures each render
  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    load(controller.signal).then(
      (data) => !controller.signal.aborted && setState({ status: 'ready', data }),
      (err: unknown) => {
        if (controller.signal.aborted) return;
        console.error(err);
        setState({ status: 'error', error: err instanceof Error && err.message ? err.message : fallbackError });
      },
    );
    return () => controller.abort();
  }, [key]);
  return state;
}
