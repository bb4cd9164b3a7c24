import { type Generation, GenerationGoneError } from '../../frontend/src/lib/api';
import {
  failedAlertText,
  generationProgress,
  generationReducer,
  groupByImageHash,
  initialGenerationState,
  isFinalStatus,
  isInProgress,
  queuedText,
  readyText,
} from '../../frontend/src/lib/generation-state';

const gen = (g: Partial<Generation>): Generation => ({
  status: 'pending',
  progress: 0,
  error: null,
  images: [],
  items: [],
  queued: 0,
  receipt: null,
  ...g,
});

describe('generationReducer', () => {
  it('starts loading', () => {
    expect(initialGenerationState).toEqual({ data: null, error: null, loading: true, done: false, gone: null });
  });

  it('keeps polling while pending or processing and stops on completed or failed', () => {
    const s1 = generationReducer(initialGenerationState, { type: 'loaded', data: gen({ status: 'pending' }) });
    expect(s1).toMatchObject({ loading: false, done: false, error: null });
    const s2 = generationReducer(s1, { type: 'loaded', data: gen({ status: 'processing', progress: 50 }) });
    expect(s2.done).toBe(false);
    expect(generationReducer(s2, { type: 'loaded', data: gen({ status: 'completed' }) }).done).toBe(true);
    const failed = generationReducer(s2, {
      type: 'loaded',
      data: gen({ status: 'failed', error: 'GPU out of memory' }),
    });
    expect(failed).toMatchObject({ done: true, error: 'GPU out of memory' });
    expect(generationReducer(s2, { type: 'loaded', data: gen({ status: 'failed' }) }).error).toBe(
      'Generation failed for an unknown reason.',
    );
  });

  it('an unknown status keeps polling (it is only shown as unknown)', () => {
    expect(
      generationReducer(initialGenerationState, {
        type: 'loaded',
        data: gen({ status: 'queued' as Generation['status'] }),
      }).done,
    ).toBe(false);
  });

  it('stops on any request failure, keeping loaded data', () => {
    const err = generationReducer(initialGenerationState, {
      type: 'failed',
      error: new Error('HTTP error! status: 500'),
    });
    expect(err).toEqual({
      data: null,
      error: 'Failed to load generation status: HTTP error! status: 500',
      loading: false,
      done: true,
      gone: null,
    });
    expect(generationReducer(initialGenerationState, { type: 'failed', error: 'weird' }).error).toBe(
      'An unknown error occurred while fetching status.',
    );
    const loaded = generationReducer(initialGenerationState, { type: 'loaded', data: gen({ status: 'processing' }) });
    const after = generationReducer(loaded, { type: 'failed', error: new Error('offline') });
    expect(after.data).toBe(loaded.data);
    expect(after.done).toBe(true);
  });

  it('a deleted order (410) keeps the spec error line and says what happened and when', () => {
    const gone = {
      detail: 'The photos and images of this order were deleted at your request.',
      erased_at: '2025-05-12T14:03:00.000Z',
    };
    const s = generationReducer(initialGenerationState, { type: 'failed', error: new GenerationGoneError(gone) });
    expect(s).toEqual({
      data: null,
      error: 'Failed to load generation status: HTTP error! status: 410',
      loading: false,
      done: true,
      gone,
    });
  });
});

describe('status helpers', () => {
  it('classifies statuses', () => {
    expect(['pending', 'processing'].map(isInProgress)).toEqual([true, true]);
    expect(['completed', 'failed', 'queued'].map(isInProgress)).toEqual([false, false, false]);
    expect(['completed', 'failed'].map(isFinalStatus)).toEqual([true, true]);
    expect(isFinalStatus('processing')).toBe(false);
  });

  it('shows the error text or the generic failure text', () => {
    expect(failedAlertText(gen({ status: 'failed', error: 'Boom' }))).toBe('Boom');
    expect(failedAlertText(gen({ status: 'failed' }))).toBe('An unexpected error occurred during generation.');
  });

  it('counts ready items and moves the bar with each finished one', () => {
    const items = (...states: Array<'pending' | 'queued' | 'done' | 'failed'>) =>
      states.map((state, i) => ({ imageHash: `h${i}`, styleId: '3d', state }));
    const seen = [
      gen({ items: items('pending', 'queued', 'pending', 'pending') }),
      gen({ items: items('done', 'queued', 'pending', 'pending') }),
      gen({ items: items('done', 'done', 'pending', 'pending') }),
      gen({ items: items('done', 'done', 'failed', 'pending') }),
      gen({ items: items('done', 'done', 'failed', 'done') }),
    ].map(generationProgress);
    expect(seen.map((p) => p.percent)).toEqual([0, 25, 50, 75, 100]);
    expect(seen.map(readyText)).toEqual([
      '0 of 4 images ready',
      '1 of 4 images ready',
      '2 of 4 images ready',
      '2 of 4 images ready · 1 could not be made',
      '3 of 4 images ready · 1 could not be made',
    ]);
    expect(seen[0].queued).toBe(1);
    expect(readyText(generationProgress(gen({ items: items('pending') })))).toBe('0 of 1 image ready');
  });

  it('groups images by image hash in first-seen order', () => {
    const img = (imageHash: string, styleId: string) => ({
      url: `u/${imageHash}/${styleId}`,
      styleName: styleId,
      styleId,
      imageHash,
      shareId: `share-${imageHash}`,
    });
    const groups = groupByImageHash([img('b', '3d'), img('a', '3d'), img('b', 'anime')]);
    expect(groups.map((g) => [g.imageHash, g.images.map((i) => i.styleId)])).toEqual([
      ['b', ['3d', 'anime']],
      ['a', ['3d']],
    ]);
    expect(groupByImageHash([])).toEqual([]);
  });
});

describe('queuedText', () => {
  it('says the order is queued only while items wait for capacity', () => {
    expect(queuedText(gen({ status: 'processing', queued: 0 }))).toBeNull();
    expect(queuedText(gen({ status: 'processing', queued: 2 }))).toMatch(/^Queued: many orders right now/);
  });
});
