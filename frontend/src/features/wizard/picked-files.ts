/**
 * Photos the visitor picked but has not uploaded yet, kept so a refresh of the tab does not lose them. Session storage
 * holds the wizard's choices (wizard-state.ts) but only text; the files themselves wait in IndexedDB (database
 * `toonzap-picked`, store `files`: File objects are structured-cloneable), one record per tab and file.
 *
 * A record goes when the visitor removes the photo or clears the list, once it is uploaded (its bytes are then on the
 * server), and when the tab's order is done (the status page, Create Another). IndexedDB outlives the tab, so the
 * records of a tab that was closed are deleted the next time the wizard opens in this browser: each tab holds a Web
 * Lock named after it for as long as it is open, and records of tabs whose lock nobody holds are swept (browsers
 * without Web Locks: records older than a day). Only accepted photos are kept (the upload rules' count and size).
 */

import { randomId } from '../../lib/random-id';
import type { SelectedFile } from './wizard-types';

const DB_NAME = 'toonzap-picked';
const STORE = 'files';
const TAB_KEY = 'toonzap.tab.v1';
const LOCK_PREFIX = 'toonzap-tab:';
/** Without Web Locks no tab can tell whether another is still open: its records are kept this long. */
const UNLOCKED_MAX_AGE_MS = 24 * 3600 * 1000;

interface KeptFile {
  tab: string;
  /** The photo's identity in the wizard (`SelectedFile.key`). */
  key: string;
  file: File;
  saved_at: number;
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

let opened: Promise<IDBDatabase> | null = null;
function database(): Promise<IDBDatabase> {
  opened ??= new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () =>
      req.result.createObjectStore(STORE, { keyPath: ['tab', 'key'] }).createIndex('tab', 'tab');
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
    req.onblocked = () => reject(new Error('IndexedDB is blocked'));
  });
  return opened;
}

function storedTabId(): string | null {
  try {
    return sessionStorage.getItem(TAB_KEY);
  } catch {
    return null;
  }
}

function newTabId(): string {
  const id = randomId();
  try {
    sessionStorage.setItem(TAB_KEY, id);
  } catch {
    /* storage blocked: the id lives as long as this page */
  }
  return id;
}

/** Holds the tab's lock until the page goes away; false when another open tab holds it. */
function holdLock(id: string): Promise<boolean> {
  return new Promise((resolve) => {
    void navigator.locks.request(`${LOCK_PREFIX}${id}`, { ifAvailable: true }, (lock) => {
      resolve(lock !== null);
      return lock ? new Promise<never>(() => {}) : undefined;
    });
  });
}

/**
 * This tab's id, and the id whose records it starts from. A duplicated tab copies session storage, so it finds an id
 * whose lock the original tab holds: it takes a new one and starts from a copy of the original's records.
 */
let claimed: Promise<{ id: string; from: string | null }> | null = null;
function tab(): Promise<{ id: string; from: string | null }> {
  claimed ??= (async () => {
    const stored = storedTabId();
    if (!('locks' in navigator)) return { id: stored ?? newTabId(), from: stored };
    if (stored && (await holdLock(stored))) return { id: stored, from: stored };
    const id = newTabId();
    await holdLock(id);
    return { id, from: stored };
  })();
  return claimed;
}

/** Keys this tab has in the store, so each change writes only what changed. */
const kept = new Set<string>();
/** One piece of work at a time, in order (a put then a delete of the same photo must not cross). */
let queue: Promise<void> = Promise.resolve();
function enqueue<T>(
  work: (db: IDBDatabase, tab: { id: string; from: string | null }) => Promise<T>,
  fallback: T,
): Promise<T> {
  const run = queue.then(async () => {
    const [db, t] = await Promise.all([database(), tab()]);
    return work(db, t);
  });
  queue = run.then(
    () => {},
    () => {},
  );
  // No store, or a failed write (quota, private mode): those photos only do not survive a refresh.
  return run.catch(() => fallback);
}

/**
 * The kept files of this tab for the given photo keys (missing ones are simply absent); this tab's records no photo
 * refers to are deleted. Never rejects: no store means nothing comes back.
 */
export function restorePicked(keys: string[]): Promise<Map<string, File>> {
  return enqueue(async (db, { id, from }) => {
    const found = new Map<string, File>();
    if (from) {
      const records = await request<KeptFile[]>(db.transaction(STORE).objectStore(STORE).index('tab').getAll(from));
      for (const r of records) if (keys.includes(r.key)) found.set(r.key, r.file);
    }
    const tx = db.transaction(STORE, 'readwrite');
    const store = tx.objectStore(STORE);
    const now = Date.now();
    for (const [key, file] of found) store.put({ tab: id, key, file, saved_at: now } satisfies KeptFile);
    for (const key of await request(store.index('tab').getAllKeys(id))) {
      if (!found.has((key as [string, string])[1])) store.delete(key);
    }
    await done(tx);
    for (const key of found.keys()) kept.add(key);
    return found;
  }, new Map<string, File>());
}

/**
 * Deletes the records of tabs that are closed (their lock is free), or old ones when the browser has no Web Locks.
 * Run when the wizard opens; a browser that never kept a file is left without a database.
 */
export async function sweepPicked(): Promise<void> {
  try {
    if (typeof indexedDB.databases === 'function' && !(await indexedDB.databases()).some((d) => d.name === DB_NAME))
      return;
    const [db, { id: self }] = await Promise.all([database(), tab()]);
    const live = 'locks' in navigator ? new Set(((await navigator.locks.query()).held ?? []).map((l) => l.name)) : null;
    const tx = db.transaction(STORE, 'readwrite');
    const cursor = tx.objectStore(STORE).openCursor();
    const cutoff = Date.now() - UNLOCKED_MAX_AGE_MS;
    cursor.onsuccess = () => {
      const c = cursor.result;
      if (!c) return;
      const r = c.value as KeptFile;
      const closed = live ? !live.has(`${LOCK_PREFIX}${r.tab}`) : r.saved_at < cutoff;
      if (r.tab !== self && closed) c.delete();
      c.continue();
    };
    await done(tx);
  } catch {
    /* next time */
  }
}

/**
 * Brings the store in line with the wizard's list: picked photos not uploaded yet are kept, every other record of
 * this tab goes (removed, cleared, uploaded).
 */
export function keepPicked(photos: SelectedFile[]): void {
  const waiting = new Map<string, File>();
  for (const p of photos) if (p.file && !p.hash) waiting.set(p.key, p.file);
  const add = [...waiting].filter(([key]) => !kept.has(key));
  const drop = [...kept].filter((key) => !waiting.has(key));
  if (add.length === 0 && drop.length === 0) return;
  for (const [key] of add) kept.add(key);
  for (const key of drop) kept.delete(key);
  void enqueue(async (db, { id }) => {
    const tx = db.transaction(STORE, 'readwrite');
    const store = tx.objectStore(STORE);
    const now = Date.now();
    for (const [key, file] of add) store.put({ tab: id, key, file, saved_at: now } satisfies KeptFile);
    for (const key of drop) store.delete([id, key]);
    await done(tx);
  }, undefined);
}

/** Forgets every picked file of this tab (the order is done, or the visitor starts again). */
export function clearPicked(): void {
  kept.clear();
  // A tab that never had an id never kept a file (e.g. the status page opened from the order e-mail).
  if (!claimed && !storedTabId()) return;
  void enqueue(async (db, { id }) => {
    const tx = db.transaction(STORE, 'readwrite');
    const store = tx.objectStore(STORE);
    for (const key of await request(store.index('tab').getAllKeys(id))) store.delete(key);
    await done(tx);
  }, undefined);
}
