import { LabelUpsampler } from '../../engine/filters/label-upsample';
import { paintLabels } from '../../engine/filters/quantize';
import { createRaster, Upsampler } from '../../engine/raster';

const PALETTE = new Float32Array([0.9, 0.2, 0.1, 0.1, 0.3, 0.8, 1, 1, 1]);

/** A disc of label 1 on label 0 (with a label-2 square) at w x h. */
function labelsOf(w: number, h: number): Uint16Array {
  const out = new Uint16Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const inDisc = Math.hypot(x + 0.5 - w / 2, y + 0.5 - h / 2) < w / 3;
      out[y * w + x] = x < w / 6 && y < h / 6 ? 2 : inDisc ? 1 : 0;
    }
  }
  return out;
}

function enlarge(
  labels: Uint16Array,
  w: number,
  h: number,
  f: number,
): { r: Float32Array; width: number; height: number } {
  const painted = paintLabels(labels, PALETTE, createRaster(w, h));
  const up = new LabelUpsampler(labels, PALETTE, painted, w * f, h * f);
  const r = new Float32Array(w * f * h * f);
  const g = new Float32Array(w * f);
  const b = new Float32Array(w * f);
  for (let y = 0; y < h * f; y++) up.row(y, r.subarray(y * w * f, (y + 1) * w * f), g, b);
  return { r, width: w * f, height: h * f };
}

/** Pixels whose red channel disagrees with the ideal disc (red 0.1 inside, 0.9 outside) at output size. */
function discError(r: Float32Array, W: number, H: number): number {
  let bad = 0;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      if (x < W / 6 && y < H / 6) continue;
      const inside = Math.hypot(x + 0.5 - W / 2, y + 0.5 - H / 2) < W / 3;
      if (Math.abs(r[y * W + x] - (inside ? 0.1 : 0.9)) > 0.4) bad++;
    }
  }
  return bad;
}

describe('LabelUpsampler', () => {
  it('reproduces the labels exactly at 1:1', () => {
    const w = 40;
    const h = 30;
    const labels = labelsOf(w, h);
    const { r } = enlarge(labels, w, h, 1);
    for (let i = 0; i < labels.length; i++) expect(r[i]).toBeCloseTo(PALETTE[labels[i] * 3], 6);
  });

  it('enlarges a label disc into a rounder disc than bilinear upsampling does (no stair steps)', () => {
    const w = 24;
    const h = 24;
    const f = 6;
    const labels = labelsOf(w, h);
    const smooth = enlarge(labels, w, h, f);
    const painted = paintLabels(labels, PALETTE, createRaster(w, h));
    const bilinear = new Float32Array(w * f * h * f);
    const up = new Upsampler(w, h, w * f, h * f);
    for (let y = 0; y < h * f; y++) up.row(painted.r, y, bilinear.subarray(y * w * f, (y + 1) * w * f));
    const eSmooth = discError(smooth.r, w * f, h * f);
    const eBilinear = discError(bilinear, w * f, h * f);
    expect(eSmooth).toBeLessThan(eBilinear * 0.6);
    // colours stay the palette's except on the one-pixel contour blend
    let off = 0;
    for (const v of smooth.r) if (![0.9, 0.1, 1].some((p) => Math.abs(v - p) < 1e-6)) off++;
    expect(off).toBeLessThan(smooth.r.length * 0.05);
  });
});
