/** State of the generation status screen, as a pure reducer (docs/product-spec.md §2, §4, §8). */
import { type ItemProgress, itemProgress } from '../../../domain/orders';
import { type GeneratedImage, type Generation, type GenerationGone, GenerationGoneError } from './api';

export interface GenerationState {
  data: Generation | null;
  error: string | null;
  loading: boolean;
  /** Polling has stopped (completed, failed, or a request error). */
  done: boolean;
  /** The status call answered 410: the customer deleted the order's photos and images; what and when. */
  gone: GenerationGone | null;
}

export type GenerationEvent = { type: 'loaded'; data: Generation } | { type: 'failed'; error: unknown };

export const initialGenerationState: GenerationState = {
  data: null,
  error: null,
  loading: true,
  done: false,
  gone: null,
};

export const UNKNOWN_FETCH_ERROR = 'An unknown error occurred while fetching status.';
export const UNKNOWN_GENERATION_FAILURE = 'Generation failed for an unknown reason.';
export const UNEXPECTED_GENERATION_FAILURE = 'An unexpected error occurred during generation.';

export function isFinalStatus(status: string): boolean {
  return status === 'completed' || status === 'failed';
}

export function isInProgress(status: string): boolean {
  return status === 'pending' || status === 'processing';
}

export function generationReducer(state: GenerationState, event: GenerationEvent): GenerationState {
  switch (event.type) {
    case 'loaded': {
      const { data } = event;
      if (data.status === 'failed') {
        return { data, error: data.error || UNKNOWN_GENERATION_FAILURE, loading: false, done: true, gone: null };
      }
      return { data, error: null, loading: false, done: isFinalStatus(data.status), gone: null };
    }
    case 'failed': {
      const error =
        event.error instanceof Error ? `Failed to load generation status: ${event.error.message}` : UNKNOWN_FETCH_ERROR;
      // Any failure stops polling; data already loaded stays on screen.
      const gone = event.error instanceof GenerationGoneError ? event.error.gone : null;
      return { ...state, error, loading: false, done: true, gone };
    }
  }
}

/** Text shown in the 'Generation Failed' alert. */
export function failedAlertText(data: Generation): string {
  return data.error || UNEXPECTED_GENERATION_FAILURE;
}

/**
 * The line under the progress bar while items wait for capacity (a busy evening): they start by themselves, and
 * nothing paid for is lost. null when nothing waits.
 */
export function queuedText(data: Pick<Generation, 'queued'>): string | null {
  if (!(data.queued > 0)) return null;
  return 'Queued: many orders right now, yours will start shortly. Every image you paid for is made as soon as there is room.';
}

/** What the progress bar and the line under it say: the items' own progress (the API's `progress`, one definition). */
export function generationProgress(data: Pick<Generation, 'items'>): ItemProgress {
  return itemProgress(data.items);
}

/** "3 of 8 images ready", and how many could not be made, if any. */
export function readyText(p: ItemProgress): string {
  const ready = `${p.ready} of ${p.total} ${p.total === 1 ? 'image' : 'images'} ready`;
  return p.failed > 0 ? `${ready} · ${p.failed} could not be made` : ready;
}

/** Images grouped by the photo they came from (image hash), in first-seen order. */
export function groupByImageHash(images: GeneratedImage[]): Array<{ imageHash: string; images: GeneratedImage[] }> {
  const groups = new Map<string, GeneratedImage[]>();
  for (const img of images) {
    const list = groups.get(img.imageHash);
    if (list) list.push(img);
    else groups.set(img.imageHash, [img]);
  }
  return [...groups].map(([imageHash, list]) => ({ imageHash, images: list }));
}
