import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import {
  getJobStatus,
  getModeration,
  getThumbnails,
  startModeration,
  startThumbnails,
  toDisplayUrl,
} from '../../lib/api';
import { errorMessage, isAbortError } from '../../lib/http';
import { pollJobUntilSuccess } from '../../lib/polling';
import { cachedData, keepData } from '../../lib/use-query';
import type { ModerationOutcome } from './wizard-types';

export type Phase = 'moderating' | 'thumbnails' | 'idle';

/** Thumbnail map value of a generative style whose previews are paused today: the tile keeps its static sample. */
export const PAUSED = 'paused';
/** Thumbnail map value of a generative style whose model was busy (a busy minute): asked again on the next visit. */
export const BUSY = 'busy';
/** What a tile without its own preview says, by the reason. */
export const SAMPLE_NOTE: Record<string, string> = {
  [PAUSED]: 'Previews paused today · sample shown',
  [BUSY]: 'Busy right now · sample shown',
};

/**
 * The tiles' map from a thumbnails answer. A style already showing its preview keeps its address (a fresh presigned
 * one would reload the image); the others take what the answer says.
 */
function mergeThumbnails(
  shown: Record<string, string>,
  list: Awaited<ReturnType<typeof getThumbnails>>,
): Record<string, string> {
  const map: Record<string, string> = {};
  for (const t of list) {
    const id = t?.style?.id;
    if (!id) continue;
    const kept = shown[id];
    if (t.image)
      map[id] = kept && kept !== PAUSED && kept !== BUSY ? kept : toDisplayUrl(t.image, window.location.hostname);
    else if ('paused' in t) map[id] = PAUSED;
    else if ('busy' in t) map[id] = BUSY;
  }
  return map;
}

/** Where a photo's previews are kept (lib/use-query.ts), so the step shown again does not make them again. */
const thumbsKey = (hash: string) => `thumbnails:${hash}`;

/**
 * Moderation of all photos, then custom thumbnails from the first allowed one. The engine's are
 * made by the moderation job, so they are fetched as soon as it ends; the thumbnail job then makes the generative
 * ones, and each tile fills in as its preview comes (the list is read again at each poll). Jobs are polled every
 * 2 s as the spec says; each status read is held by the server until the job ends (long polling, getJobStatus), so
 * the verdict is seen when it comes, not at the next poll.
 */
export function useModerationAndThumbnails(
  hashes: string[],
  moderation: ModerationOutcome | null,
  onModeration: (m: ModerationOutcome) => void,
) {
  const key = hashes.join(',');
  const known = moderation && moderation.key === key ? moderation : null;
  const [phase, setPhase] = useState<Phase>(known ? 'idle' : 'moderating');
  const [error, setError] = useState<string | null>(null);
  const [thumbError, setThumbError] = useState<string | null>(null);
  const [thumbs, setThumbs] = useState<Record<string, string>>(() =>
    known?.allowed[0] ? (cachedData<Record<string, string>>(thumbsKey(known.allowed[0])) ?? {}) : {},
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per set of photos; `hashes` and `known` derive from `key`, the callbacks are the parent's
  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;

    async function moderate(): Promise<string[]> {
      if (known) return known.allowed;
      setPhase('moderating');
      const jobId = await startModeration(hashes);
      await pollJobUntilSuccess((s) => getJobStatus(jobId, 'moderation', s), { signal });
      const results = await Promise.all(hashes.map((h) => getModeration(h, signal)));
      if (signal.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
      const allowed = hashes.filter((_h, i) => results[i]?.moderation === 'allowed');
      const refused = hashes.flatMap((hash, i) =>
        results[i]?.moderation === 'allowed'
          ? []
          : [{ hash, reason: results[i]?.reason ?? 'did not pass our content check' }],
      );
      onModeration({ key, allowed, refused });
      toast.success('Moderation Completed', {
        description: `${allowed.length} / ${hashes.length} images passed moderation.`,
      });
      if (allowed.length === 0) toast.error('No images passed moderation', { description: 'Please try again.' });
      return allowed;
    }

    async function thumbnails(hash: string) {
      const cached = cachedData<Record<string, string>>(thumbsKey(hash));
      if (cached) {
        setThumbs(cached);
        return;
      }
      setPhase('thumbnails');
      let map: Record<string, string> = {};
      const show = async (s?: AbortSignal) => {
        map = mergeThumbnails(map, await getThumbnails(hash, s));
        if (!signal.aborted) setThumbs(map);
      };
      // What the moderation job made (the engine's previews) shows now, while the job makes the rest.
      const [jobId] = await Promise.all([startThumbnails(hash), show(signal).catch(() => undefined)]);
      await pollJobUntilSuccess(
        async (s) => {
          const status = await getJobStatus(jobId, 'thumbnail', s);
          // Read after the status: a SUCCESS read is followed by the complete list.
          await show(s);
          return status;
        },
        { signal },
      );
      // A busy style is asked again when the step is shown again, so that map is not kept.
      if (!Object.values(map).includes(BUSY)) keepData(thumbsKey(hash), map);
    }

    (async () => {
      let allowed: string[];
      try {
        allowed = await moderate();
      } catch (err) {
        if (isAbortError(err) || signal.aborted) return;
        console.error('Moderation failed', err);
        setError(errorMessage(err, 'An unknown error occurred'));
        setPhase('idle');
        return;
      }
      try {
        if (allowed[0]) await thumbnails(allowed[0]);
      } catch (err) {
        if (isAbortError(err) || signal.aborted) return;
        console.error('Thumbnail generation failed', err);
        setThumbError(errorMessage(err, 'An unknown error occurred'));
      }
      if (!signal.aborted) setPhase('idle');
    })();

    return () => controller.abort();
  }, [key]);

  return { phase, error, thumbError, thumbs, allowed: known?.allowed ?? null, refused: known?.refused ?? [] };
}
