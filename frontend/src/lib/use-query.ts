/**
 * The frontend's server state in one place: answers kept per key for the life of the tab (a step left and shown
 * again does not ask twice) and one request per key at a time. A small hook rather than TanStack Query: the app's
 * reads are a handful of lists read once and job polls that already have their own schedule (polling.ts), so a
 * cache with no refetching, retries or invalidation rules is all it needs, at no cost to the bundle.
 */
import { useEffect, useState } from 'react';
import { getAvailableStyles, type Style } from './api';

type Entry = { data?: unknown; pending?: Promise<unknown> };
const cache = new Map<string, Entry>();

/** The answer kept under `key`, if any. */
export function cachedData<T>(key: string): T | undefined {
  return cache.get(key)?.data as T | undefined;
}

/** Keeps `data` under `key` (an answer a poll assembled, e.g. a photo's previews). */
export function keepData<T>(key: string, data: T): void {
  cache.set(key, { data });
}

function fetchOnce<T>(key: string, load: () => Promise<T>): Promise<T> {
  const entry = cache.get(key);
  if (entry && 'data' in entry) return Promise.resolve(entry.data as T);
  if (entry?.pending) return entry.pending as Promise<T>;
  const pending = load().then(
    (data) => {
      cache.set(key, { data });
      return data;
    },
    (err: unknown) => {
      // A failed read is not kept: the next visit asks again.
      cache.delete(key);
      throw err;
    },
  );
  cache.set(key, { pending });
  return pending;
}

export type QueryState<T> = { status: 'loading' } | { status: 'error'; error: unknown } | { status: 'ready'; data: T };

/** Reads `key` once per tab with `load`; the component shows what is kept at once. */
export function useQuery<T>(key: string, load: () => Promise<T>): QueryState<T> {
  const [state, setState] = useState<QueryState<T>>(() => {
    const data = cachedData<T>(key);
    return data === undefined ? { status: 'loading' } : { status: 'ready', data };
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: one read per key; `load` is a new closure each render
  useEffect(() => {
    let live = true;
    fetchOnce(key, load).then(
      (data) => live && setState({ status: 'ready', data }),
      (error: unknown) => {
        console.error(`Failed to load ${key}`, error);
        if (live) setState({ status: 'error', error });
      },
    );
    return () => {
      live = false;
    };
  }, [key]);
  return state;
}

/** This deployment's styles (GET /api/styles): null while loading, empty when they could not be read. */
export function useAvailableStyles(): Style[] | null {
  const state = useQuery('styles', getAvailableStyles);
  return state.status === 'loading' ? null : state.status === 'ready' ? state.data : [];
}
