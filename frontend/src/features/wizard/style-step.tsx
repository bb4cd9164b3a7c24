import { ArrowLeft, Check, ShieldCheck, Sparkles, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { MIN_SHORT_SIDE } from '../../../../domain/image-format';
import { formatPrice, pricePerImage } from '../../../../domain/pricing';
import { Alert } from '../../components/ui/Alert';
import { Button } from '../../components/ui/Button';
import { cn } from '../../components/ui/cn';
import { Skeleton } from '../../components/ui/Skeleton';
import {
  getAvailableStyles,
  getJobStatus,
  getModeration,
  getThumbnails,
  type Style,
  startModeration,
  startThumbnails,
  toDisplayUrl,
} from '../../lib/api';
import { STAND_IN_LABEL, STAND_IN_NOTE, useConfig, useGenerativeStandIn } from '../../lib/config';
import { errorMessage, isAbortError } from '../../lib/http';
import { pollJobUntilSuccess } from '../../lib/polling';
import { StepHeader } from './StepHeader';
import type { ModerationOutcome, SelectedFile } from './wizard-types';

// Results that survive leaving and re-entering the step (e.g. back from the order screen).
let stylesCache: Style[] | null = null;
const thumbnailCache = new Map<string, Record<string, string>>();

type Phase = 'moderating' | 'thumbnails' | 'idle';

/** Thumbnail map value of a generative style whose previews are paused today: the tile keeps its static sample. */
const PAUSED = 'paused';
/** Thumbnail map value of a generative style whose model was busy (a busy minute): asked again on the next visit. */
const BUSY = 'busy';
/** What a tile without its own preview says, by the reason. */
const SAMPLE_NOTE: Record<string, string> = {
  [PAUSED]: 'Previews paused today · sample shown',
  [BUSY]: 'Busy right now · sample shown',
};

function useStyles() {
  const [styles, setStyles] = useState<Style[] | null>(stylesCache);
  useEffect(() => {
    if (stylesCache) return;
    let active = true;
    getAvailableStyles()
      .then((list) => {
        stylesCache = list;
        if (active) setStyles(list);
      })
      .catch((err: unknown) => {
        console.error('Failed to load styles', err);
        if (active) setStyles([]);
      });
    return () => {
      active = false;
    };
  }, []);
  return styles;
}

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

/**
 * Moderation of all photos, then custom thumbnails from the first allowed one (spec section 4). The engine's are
 * made by the moderation job, so they are fetched as soon as it ends; the thumbnail job then makes the generative
 * ones, and each tile fills in as its preview comes (the list is read again at each poll). Jobs are polled every
 * 2 s as the spec says; each status read is held by the server until the job ends (long polling, getJobStatus), so
 * the verdict is seen when it comes, not at the next poll.
 */
function useModerationAndThumbnails(
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
    known?.allowed[0] ? (thumbnailCache.get(known.allowed[0]) ?? {}) : {},
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
      const cached = thumbnailCache.get(hash);
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
      if (!Object.values(map).includes(BUSY)) thumbnailCache.set(hash, map);
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

export default function StyleStep({
  hashes,
  photos,
  selected,
  onSelectedChange,
  moderation,
  onModeration,
  onRemovePhoto,
  onBack,
  onContinue,
}: {
  hashes: string[];
  photos: SelectedFile[];
  selected: string[];
  onSelectedChange: (styles: string[]) => void;
  moderation: ModerationOutcome | null;
  onModeration: (m: ModerationOutcome) => void;
  onRemovePhoto: (hash: string) => void;
  onBack: () => void;
  onContinue: () => void;
}) {
  const styles = useStyles();
  // Moderation runs once per uploaded set; removing a refused photo keeps the others' verdicts (see HomePage).
  const { phase, error, thumbError, thumbs, allowed, refused } = useModerationAndThumbnails(
    hashes,
    moderation,
    onModeration,
  );
  const prelaunch = useConfig().config?.paymentMode === 'prelaunch';
  const standIn = useGenerativeStandIn();
  const standInStyles = standIn ? (styles ?? []).filter((s) => s.aiGenerated).map((s) => s.name) : [];
  const noneAllowed = allowed !== null && allowed.length === 0;
  const canContinue = selected.length > 0 && !(noneAllowed && !prelaunch);

  // Keep toasts above the fixed Continue bar while this step is shown.
  useEffect(() => {
    document.documentElement.style.setProperty('--toast-bottom', '88px');
    return () => {
      document.documentElement.style.removeProperty('--toast-bottom');
    };
  }, []);

  function toggle(id: string) {
    onSelectedChange(selected.includes(id) ? selected.filter((s) => s !== id) : [...selected, id]);
  }

  return (
    <section className="container-page pt-10 pb-32 sm:pt-14">
      <StepHeader
        title="Choose Your Styles"
        subtitle="Pick one or more looks. Each style you choose is created for every photo you uploaded."
        onBack={onBack}
        step={{ current: 2, total: 3 }}
      />

      <div className="space-y-3" aria-live="polite">
        {phase === 'moderating' && (
          <Alert variant="progress" title="Security Scan in Progress...">
            We check every photo before it is processed.
          </Alert>
        )}
        {phase === 'thumbnails' && (
          <Alert variant="progress" title="Generating Custom Thumbnails...">
            Previews of your own photo will replace the samples in a moment.
          </Alert>
        )}
        {error && <Alert variant="destructive">{error}</Alert>}
        {thumbError && <Alert variant="destructive">{thumbError}</Alert>}
        {allowed && allowed.length > 0 && phase === 'idle' && !error && (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <ShieldCheck aria-hidden="true" className="size-4 text-emerald-600 dark:text-emerald-400" />
            {allowed.length} / {hashes.length} images passed moderation.
          </p>
        )}
        {noneAllowed && (
          <Alert variant="destructive" title="None of your photos passed our content check">
            <p>
              We can only turn photos that follow our Terms and are at least {MIN_SHORT_SIDE} px on their short side
              into cartoons. Please upload other photos.
            </p>
            <Button variant="outline" size="sm" className="mt-3" onClick={onBack} icon={ArrowLeft}>
              Back to upload
            </Button>
          </Alert>
        )}
      </div>

      {refused.length > 0 && (
        <section
          aria-labelledby="refused-heading"
          className="mt-6 rounded-2xl border border-destructive/30 bg-destructive/5 p-4"
        >
          <h2 id="refused-heading" className="text-sm font-semibold">
            {refused.length === 1 ? '1 photo is' : `${refused.length} photos are`} not included
          </h2>
          <ul className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {refused.map((r) => {
              const photo = photos.find((p) => p.hash === r.hash);
              const name = photo?.name ?? `Photo ${hashes.indexOf(r.hash) + 1}`;
              return (
                <li
                  key={r.hash}
                  data-refused={r.hash}
                  className="flex items-center gap-3 rounded-xl bg-card p-2 pr-3 shadow-sm ring-1 ring-border"
                >
                  {photo ? (
                    <img
                      src={photo.previewUrl}
                      alt=""
                      className="size-14 shrink-0 rounded-lg object-cover opacity-70"
                    />
                  ) : (
                    <span aria-hidden="true" className="size-14 shrink-0 rounded-lg bg-muted" />
                  )}
                  <span className="min-w-0 flex-1">
                    <span className="block truncate text-sm font-medium">{name}</span>
                    <span className="block text-sm text-destructive">This photo {r.reason}.</span>
                  </span>
                  <Button
                    variant="ghost-destructive"
                    size="sm"
                    onClick={() => onRemovePhoto(r.hash)}
                    aria-label={`Remove ${name}`}
                  >
                    <X aria-hidden="true" />
                    Remove
                  </Button>
                </li>
              );
            })}
          </ul>
        </section>
      )}

      {styles === null ? (
        <ul
          className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-4"
          aria-busy="true"
          aria-label="Loading styles"
        >
          {Array.from({ length: 8 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: eight fixed placeholders with no identity of their own
            <li key={i}>
              <Skeleton className="aspect-square" />
              <Skeleton className="mt-2 h-4 w-2/3" />
            </li>
          ))}
        </ul>
      ) : styles.length === 0 ? (
        <p className="mt-10 rounded-2xl border border-dashed border-border p-10 text-center text-muted-foreground">
          No styles available
        </p>
      ) : (
        <ul className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-4">
          {styles.map((style) => {
            const on = selected.includes(style.id);
            const note = SAMPLE_NOTE[thumbs[style.id] ?? ''];
            const custom = note ? undefined : thumbs[style.id];
            return (
              <li key={style.id}>
                <button
                  type="button"
                  aria-pressed={on}
                  onClick={() => toggle(style.id)}
                  className={cn(
                    'group relative block w-full overflow-hidden rounded-2xl border-2 bg-card text-left shadow-sm transition',
                    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
                    on
                      ? 'border-primary ring-4 ring-primary/20'
                      : 'border-transparent ring-1 ring-border hover:ring-primary/40',
                  )}
                >
                  <span className="relative block aspect-square overflow-hidden bg-muted">
                    <img
                      src={custom ?? `/thumbnails/${style.id}.png`}
                      alt={`${style.name} style preview`}
                      loading="lazy"
                      className={cn(
                        'size-full object-cover transition duration-300 group-hover:scale-[1.03]',
                        phase === 'thumbnails' && !custom && 'opacity-80',
                      )}
                    />
                    {phase === 'thumbnails' && !custom && (
                      <span aria-hidden="true" className="absolute inset-0 animate-pulse bg-white/15" />
                    )}
                    {style.aiGenerated && (
                      <span
                        data-stand-in={standIn || undefined}
                        className="absolute top-2 left-2 rounded-full bg-black/65 px-2 py-0.5 text-[11px] font-semibold text-white shadow"
                      >
                        {standIn ? STAND_IN_LABEL : 'AI-generated'}
                      </span>
                    )}
                    {note && (
                      <span className="absolute inset-x-0 bottom-0 bg-black/65 px-2 py-1 text-center text-[11px] font-medium text-white">
                        {note}
                      </span>
                    )}
                    <span
                      aria-hidden="true"
                      className={cn(
                        'absolute top-2 right-2 flex size-7 items-center justify-center rounded-full border-2 shadow transition',
                        on ? 'border-white bg-primary text-white' : 'border-white/80 bg-black/25 text-transparent',
                      )}
                    >
                      <Check className="size-4" strokeWidth={3} />
                    </span>
                  </span>
                  <span className="block px-3 py-2.5">
                    <span className="block font-semibold">{style.name}</span>
                    {style.description && (
                      <span className="mt-0.5 line-clamp-2 block text-xs text-muted-foreground">
                        {style.description}
                      </span>
                    )}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {standInStyles.length > 0 && (
        <p data-stand-in-note className="mt-4 text-sm text-muted-foreground">
          {`${STAND_IN_LABEL}: ${standInStyles.join(' and ')}. ${STAND_IN_NOTE}`}
        </p>
      )}

      <div className="fixed inset-x-0 bottom-0 z-20 border-t border-border bg-background/90 backdrop-blur-md">
        <div className="container-page flex items-center justify-between gap-4 py-3">
          <p className="text-sm text-muted-foreground">
            <span className="font-semibold text-foreground">{selected.length}</span>{' '}
            {selected.length === 1 ? 'style' : 'styles'} selected
            {selected.length > 0 && !prelaunch && (
              <span className="hidden sm:inline"> · {formatPrice(pricePerImage(selected.length))} per image</span>
            )}
          </p>
          <Button variant="gradient" size="lg" disabled={!canContinue} onClick={onContinue} icon={Sparkles}>
            Continue
          </Button>
        </div>
      </div>
    </section>
  );
}
