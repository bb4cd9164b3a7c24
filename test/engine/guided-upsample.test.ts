import { GuidedUpsampler } from '../../engine/filters/guided-upsample';
import { type Image8, luma, rasterFromRGB8, Upsampler } from '../../engine/raster';

const F = 4; // enlargement, as from the 480-px work size to 2048 px
const W = 160;
const H = 120;

/**
 * A full-size photo: a dark disc on a light ground (a clean edge) whose left half carries fine grey noise
 * (texture a style smooths away). Deterministic.
 */
function photo(): Image8 {
  const data = new Uint8Array(W * H * 3);
  let seed = 7;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const inside = Math.hypot(x + 0.5 - W / 2, y + 0.5 - H / 2) < H / 3;
      seed = (seed * 1103515245 + 12345) >>> 0;
      const noise = x < W / 2 ? ((seed >>> 16) % 41) - 20 : 0;
      const v = (inside ? 60 : 200) + noise;
      data.set([v, v, v], (y * W + x) * 3);
    }
  }
  return { data, width: W, height: H };
}

/** The ideal style at full size: the disc edge, no texture. */
function ideal(x: number, y: number): number {
  return Math.hypot(x + 0.5 - W / 2, y + 0.5 - H / 2) < H / 3 ? 60 / 255 : 200 / 255;
}

function render(focus?: number): { guided: Float64Array; bilinear: Float32Array } {
  const full = photo();
  const ww = W / F;
  const wh = H / F;
  // the "style" at work size: the photo area-averaged, with its texture removed (flat levels inside and out)
  const work = rasterFromRGB8(full, ww, wh);
  const guide = luma(work); // the photo's luma at work size, as three-d keeps it
  for (let i = 0; i < ww * wh; i++) {
    const x = (i % ww) * F;
    const y = Math.floor(i / ww) * F;
    // average of the ideal over the block: a clean, anti-aliased edge and no noise
    let s = 0;
    for (let dy = 0; dy < F; dy++) for (let dx = 0; dx < F; dx++) s += ideal(x + dx, y + dy);
    work.r[i] = work.g[i] = work.b[i] = s / (F * F);
  }
  const gu = new GuidedUpsampler(
    guide,
    work,
    full,
    1,
    2e-4,
    focus === undefined ? undefined : new Float32Array(ww * wh).fill(focus),
  );
  // the output as bytes (what a render writes), read back as the red channel in 0..1
  const bytes = new Uint8ClampedArray(W * H * 3);
  for (let y = 0; y < H; y++) gu.rowRGB8(y, bytes);
  const guided = new Float64Array(W * H);
  for (let i = 0; i < W * H; i++) guided[i] = bytes[i * 3] / 255;
  const bilinear = new Float32Array(W * H);
  const up = new Upsampler(ww, wh, W, H);
  for (let y = 0; y < H; y++) up.row(work.r, y, bilinear.subarray(y * W, (y + 1) * W));
  return { guided, bilinear };
}

/** Mean absolute error against the ideal, over the pixels near the disc edge. */
function edgeError(img: Float32Array | Float64Array, half: 'noisy' | 'clean'): number {
  let s = 0;
  let n = 0;
  for (let y = 0; y < H; y++) {
    for (let x = half === 'noisy' ? 0 : W / 2; x < (half === 'noisy' ? W / 2 : W); x++) {
      const d = Math.abs(Math.hypot(x + 0.5 - W / 2, y + 0.5 - H / 2) - H / 3);
      if (d > F) continue;
      s += Math.abs(img[y * W + x] - ideal(x, y));
      n++;
    }
  }
  return s / n;
}

/** Mean absolute difference between horizontal neighbours away from the edge (texture that came back). */
function roughness(img: Float32Array | Float64Array, x0: number, x1: number): number {
  let s = 0;
  let n = 0;
  for (let y = 0; y < H; y++) {
    for (let x = x0 + 1; x < x1; x++) {
      if (Math.abs(Math.hypot(x + 0.5 - W / 2, y + 0.5 - H / 2) - H / 3) < 2 * F) continue;
      s += Math.abs(img[y * W + x] - img[y * W + x - 1]);
      n++;
    }
  }
  return s / n;
}

describe('GuidedUpsampler', () => {
  it('brings a kept edge back sharper than bilinear enlargement', () => {
    const { guided, bilinear } = render();
    expect(edgeError(guided, 'clean')).toBeLessThan(0.5 * edgeError(bilinear, 'clean'));
  });

  it('leaves smoothed texture smooth (the noise the style removed does not come back)', () => {
    const { guided, bilinear } = render();
    expect(roughness(guided, 0, W / 2)).toBeLessThan(roughness(bilinear, 0, W / 2) + 0.01);
    expect(edgeError(guided, 'noisy')).toBeLessThan(edgeError(bilinear, 'noisy'));
  });

  it('is plain bilinear enlargement where focus is 0', () => {
    const { guided, bilinear } = render(0);
    // the same bytes as the bilinear enlargement written out
    for (let i = 0; i < guided.length; i++)
      expect(guided[i]).toBe(Math.min(255, Math.max(0, Math.round(bilinear[i] * 255))) / 255);
  });
});
