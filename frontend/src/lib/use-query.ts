/**
 * The frontend's server state in one place: reads kept per key for the life of the tab (a step left and shown
 * again does not ask twice, one request per key at a time), and polls that fold each answer into a state until it
 * says it is done. A small hook rather than TanStack Query: the app's reads are a handful of lists and share pages
 * read once, plus the status page's poll, so a cache with no refetching, retries or invalidation rules is all it
 * needs, at no cost to the bundle.
 */
import { useEffect, useRef, useState } from 'react';
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

function keptState<T>(key: string): QueryState<T> {
  const data = cachedData<T>(key);
  return data === undefined ? { status: 'loading' } : { status: 'ready', data };
}

/** Reads `key` once per tab with `load`; the component shows what is kept at once, and a new key's own state. */
export function useQuery<T>(key: string, load: () => Promise<T>): QueryState<T> {
  const [held, setHeld] = useState(() => ({ key, state: keptState<T>(key) }));
  // biome-ignore lint/correctness/useExhaustiveDependencies: one read per key; `load` is a new closure each render
  useEffect(() => {
    let live = true;
    const settle = (state: QueryState<T>) => live && setHeld({ key, state });
    fetchOnce(key, load).then(
      (data) => settle({ status: 'ready', data }),
      (error: unknown) => {
        console.error(`Failed to load ${key}`, error);
        settle({ status: 'error', error });
      },
    );
    return () => {
      live = false;
    };
  }, [key]);
  return held.key === key ? held.state : keptState<T>(key);
}

/** The words to show for a failed read: the error's own (the API client's are the spec's), else `fallback`. */
export function errorText(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

/** One outcome of a poll's read. */
export type PollEvent<T> = { type: 'loaded'; data: T } | { type: 'failed'; error: unknown };

export interface PollOptions<T, S> {
  /** Wait between the end of one read and the start of the next. */
  intervalMs: number;
  /** Folds an outcome into the state; a state with `done` ends the poll. */
  reduce: (state: S, event: PollEvent<T>) => S;
  initial: S;
  /** False stops the poll (the state stays as it is). */
  enabled?: boolean;
}

/**
 * Polls `key` with `read`: at once, then `intervalMs` after each read ends, until the state says `done`, `enabled`
 * turns false or the component leaves (the read under way is aborted and its outcome dropped). Nothing is cached:
 * each read is news. A new key starts over from `initial`; no key, no poll.
 */
export function usePoll<T, S extends { done: boolean }>(
  key: string | undefined,
  read: (signal: AbortSignal) => Promise<T>,
  { intervalMs, reduce, initial, enabled = true }: PollOptions<T, S>,
): S {
  const [held, setHeld] = useState({ key, state: initial });
  const state = held.key === key ? held.state : initial;
  // The loop reads the latest closures and state without restarting on each render.
  const latest = useRef({ read, reduce, state });
  latest.current = { read, reduce, state };

  useEffect(() => {
    if (!key || !enabled || latest.current.state.done) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      let event: PollEvent<T>;
      try {
        event = { type: 'loaded', data: await latest.current.read(controller.signal) };
      } catch (error) {
        event = { type: 'failed', error };
      }
      if (controller.signal.aborted) return;
      if (event.type === 'failed') console.error(`Failed to load ${key}`, event.error);
      const next = latest.current.reduce(latest.current.state, event);
      latest.current.state = next;
      setHeld({ key, state: next });
      if (!next.done) timer = setTimeout(run, intervalMs);
    };
    void run();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [key, enabled, intervalMs]);
  return state;
}

/** This deployment's styles (GET /api/styles): null while loading, empty when they could not be read. */
export function useAvailableStyles(): Style[] | null {
  const state = useQuery('styles', getAvailableStyles);
  return state.status === 'loading' ? null : state.status === 'ready' ? state.data : [];
}
