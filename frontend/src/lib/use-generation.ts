import { useReducer } from 'react';
import { getGeneration } from './api';
import { type GenerationState, generationReducer, initialGenerationState, isFinalStatus } from './generation-state';
import { GENERATION_POLL_MS } from './polling';
import { usePolling } from './use-polling';

/**
 * The generation `id` as the status page shows it: fetched at once, then every GENERATION_POLL_MS until it is final
 * or a request fails (each outcome folded in by generationReducer). `enabled` false stops polling (after erasure).
 */
export function useGeneration(id: string | undefined, enabled: boolean): GenerationState {
  const [state, dispatch] = useReducer(generationReducer, initialGenerationState);
  usePolling(
    async (signal) => {
      if (!id) return 'stop';
      try {
        const data = await getGeneration(id, signal);
        if (signal.aborted) return 'stop';
        dispatch({ type: 'loaded', data });
        return isFinalStatus(data.status) ? 'stop' : 'continue';
      } catch (error) {
        if (signal.aborted) return 'stop';
        console.error('Failed to load generation status', error);
        dispatch({ type: 'failed', error });
        return 'stop';
      }
    },
    GENERATION_POLL_MS,
    !!id && enabled,
    id,
  );
  return state;
}
