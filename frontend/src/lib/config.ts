/**
 * Run-time settings from GET /api/config, loaded once at start-up. Until (or unless) it arrives the
 * brand falls back to DEFAULT_BRAND and the payment system counts as not ready.
 */
import { useSyncExternalStore } from 'react';
import { DEFAULT_SUPPORT_EMAIL } from '../../../domain/privacy';
import { type AppConfig, getConfig } from './api';

export const DEFAULT_BRAND = 'ToonZap';

export interface ConfigState {
  config: AppConfig | null;
  status: 'loading' | 'ready' | 'error';
}

let state: ConfigState = { config: null, status: 'loading' };
const listeners = new Set<() => void>();
let started = false;

function set(next: ConfigState) {
  state = next;
  for (const l of listeners) l();
}

export function loadConfig(retries = 3): void {
  if (started) return;
  started = true;
  const attempt = (left: number) => {
    getConfig()
      .then((config) => set({ config, status: 'ready' }))
      .catch((err: unknown) => {
        console.error('Failed to load /api/config', err);
        if (left > 0) setTimeout(() => attempt(left - 1), 1500);
        else set({ config: null, status: 'error' });
      });
  };
  attempt(retries);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useConfig(): ConfigState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => state,
  );
}

export function useBrand(): string {
  return useConfig().config?.brand || DEFAULT_BRAND;
}

/** Where visitors write to: this environment's address once the config is loaded (the default before). */
export function useSupportEmail(): string {
  return useConfig().config?.supportEmail || DEFAULT_SUPPORT_EMAIL;
}

/**
 * True when this runtime's generative styles are drawn by the local runtime's engine stand-in, not the AI model
 * (GET /api/config `generativeStandIn`; only `npm start` sets it): their tiles and image pages say so.
 */
export function useGenerativeStandIn(): boolean {
  return useConfig().config?.generativeStandIn === true;
}

/** What a stand-in's tile and image page say (frontend/src/features/wizard/style-step.tsx, ImagePage.tsx). */
export const STAND_IN_LABEL = 'Local approximation';
export const STAND_IN_NOTE =
  "Drawn by this local runtime's engine stand-in: an approximation, not the AI model's output, which looks different.";

/** 'Payment system ready' = config loaded and payments are live (not pre-launch). */
export function isPaymentReady(s: ConfigState): boolean {
  return s.status === 'ready' && !!s.config && s.config.paymentMode !== 'prelaunch';
}
