import { celQuantize } from '../../engine/filters/cel';
import { dissolveThinStrips } from '../../engine/filters/cel-regions';
import { createRaster } from '../../engine/raster';

/**
 * A dusk sky (blue, darkening upward) with thin dark masts, as in rocket.jpg. Cel bands must cross the sky along
 * straight iso-lines; a plain Gaussian guide is pulled down by the masts, so the band border dips around them
 * (the "drips" anime once showed).
 */
function duskWithMasts(w: number, h: number) {
  const img = createRaster(w, h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const v = 0.12 + (0.4 * y) / h;
      const mast = x % 60 >= 29 && x % 60 <= 30 && y > 20;
      img.r[i] = mast ? 0.03 : v * 0.5;
      img.g[i] = mast ? 0.03 : v * 0.75;
      img.b[i] = mast ? 0.04 : Math.min(1, v * 1.6);
    }
  }
  return img;
}

/** Rows where the label changes going down column x. */
function borders(labels: Uint16Array, w: number, h: number, x: number): number[] {
  const rows: number[] = [];
  for (let y = 1; y < h; y++) if (labels[y * w + x] !== labels[(y - 1) * w + x]) rows.push(y);
  return rows;
}

describe('cel quantisation of smooth skies', () => {
  const w = 240;
  const h = 160;
  const opts = { chromaK: 3, bands: [0.3, 0.6, 0.86], minRegion: 40, lumaWeight: 0.12, smoothFlat: 11 };
  // columns beside a mast (3 px off) and halfway between two masts
  const near = [26, 33, 86, 93, 146, 153];
  const far = [15, 45, 75, 105, 135, 165];

  /** Largest shift (rows) of any border beside a mast against the same border between masts. */
  function dip(smoothFlatRange?: number): number {
    const { labels } = celQuantize(duskWithMasts(w, h), { ...opts, smoothFlatRange });
    const nearRows = near.map((x) => borders(labels, w, h, x));
    const farRows = far.map((x) => borders(labels, w, h, x));
    const count = farRows[0].length;
    // the sky is cut into bands at all, and every column crosses the same borders
    expect(count).toBeGreaterThan(0);
    for (const rows of [...nearRows, ...farRows]) expect(rows.length).toBe(count);
    const mean = (a: number[]) => a.reduce((s, v) => s + v, 0) / a.length;
    let worst = 0;
    for (let k = 0; k < count; k++) {
      worst = Math.max(worst, Math.abs(mean(nearRows.map((r) => r[k])) - mean(farRows.map((r) => r[k]))));
    }
    return worst;
  }

  it('an edge-aware guide keeps the band border straight beside thin dark masts', () => {
    expect(dip(0.05)).toBeLessThanOrEqual(1);
  });

  it('the Gaussian guide is the one that dips (so the check above can fail)', () => {
    expect(dip(undefined)).toBeGreaterThan(2);
  });
});

describe('dissolveThinStrips', () => {
  const W = 30;
  const H = 4;
  /** Columns: 10 of colour A, a 2-px strip of colour S, the rest colour B (labels 0, 1, 2). */
  function strip(a: number[], s: number[], b: number[]) {
    const img = createRaster(W, H);
    const labels = new Uint16Array(W * H);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const [l, c] = x < 10 ? [0, a] : x < 12 ? [1, s] : [2, b];
        const i = y * W + x;
        labels[i] = l;
        [img.r[i], img.g[i], img.b[i]] = c;
      }
    }
    return { img, labels };
  }
  const RED = [0.6, 0.1, 0.12];
  const WHITE = [0.85, 0.82, 0.8];
  const row = (labels: Uint16Array) => Array.from(labels.subarray(0, W)).join('');

  it('splits an anti-aliasing strip (a blend of its neighbours) between them', () => {
    const { img, labels } = strip(RED, [0.72, 0.45, 0.44], WHITE);
    dissolveThinStrips(labels, img, 3, 3);
    expect(row(labels)).toBe('0'.repeat(11) + '2'.repeat(19));
  });

  it('keeps a strip with a colour of its own (a dark mast, an ink-dark seam)', () => {
    const { img, labels } = strip(RED, [0.05, 0.05, 0.06], WHITE);
    dissolveThinStrips(labels, img, 3, 3);
    expect(row(labels)).toBe('0'.repeat(10) + '11' + '2'.repeat(18));
  });

  it('keeps strips wider than the limit', () => {
    const { img, labels } = strip(RED, [0.72, 0.45, 0.44], WHITE);
    dissolveThinStrips(labels, img, 3, 1);
    expect(row(labels)).toBe('0'.repeat(10) + '11' + '2'.repeat(18));
  });
});
