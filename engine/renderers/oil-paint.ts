import { gaussBlur, resizePlane } from '../filters/blur';
import { saturate, tint, tone } from '../filters/color';
import { domainTransform } from '../filters/edge-aware';
import { kuwahara } from '../filters/kuwahara';
import { whiteNoise } from '../filters/noise';
import { luma, type Raster, scaleOf } from '../raster';
import { toWork, upTo } from './common';

/**
 * Oil painting: Kuwahara brush blocks on an abstracted image, then impasto relief from noise
 * smeared along the local edge direction (line-integral convolution of the structure-tensor
 * tangent field), lit from the top left, plus a faint canvas weave.
 */
export function oilPaint(img: Raster): Raster {
  const { width: w, height: h } = img;
  const { work, s } = toWork(img);
  domainTransform(work, 8 * s, 0.18, 2);
  const painted = kuwahara(work, 3.8 * s);
  saturate(painted, 1.3);
  tint(painted, 1.03, 1.0, 0.95);
  tone(painted, 0.95, 1.08, 0.5, 0);
  const ww = painted.width;
  const wh = painted.height;
  const n = ww * wh;
  // Structure tensor of the luminance -> stroke direction (tangent to edges).
  const L = luma(painted);
  const jxx = new Float32Array(n);
  const jxy = new Float32Array(n);
  const jyy = new Float32Array(n);
  for (let y = 0; y < wh; y++) {
    for (let x = 0; x < ww; x++) {
      const i = y * ww + x;
      const gx = L[y * ww + Math.min(ww - 1, x + 1)] - L[y * ww + Math.max(0, x - 1)];
      const gy = L[Math.min(wh - 1, y + 1) * ww + x] - L[Math.max(0, y - 1) * ww + x];
      jxx[i] = gx * gx;
      jxy[i] = gx * gy;
      jyy[i] = gy * gy;
    }
  }
  const sig = Math.max(1.5, 4 * s);
  const bxx = gaussBlur(jxx, ww, wh, sig);
  const bxy = gaussBlur(jxy, ww, wh, sig);
  const byy = gaussBlur(jyy, ww, wh, sig);
  const tx = new Float32Array(n);
  const ty = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    // Minor eigenvector of the tensor = edge tangent. Default diagonal strokes in flat areas.
    const a = bxx[i];
    const b = bxy[i];
    const c = byy[i];
    const lam = 0.5 * (a + c - Math.sqrt((a - c) * (a - c) + 4 * b * b));
    let vx = b;
    let vy = lam - a;
    let len = Math.sqrt(vx * vx + vy * vy);
    if (len < 1e-7) {
      vx = lam - c;
      vy = b;
      len = Math.sqrt(vx * vx + vy * vy);
    }
    if (len < 1e-7) {
      vx = 0.8;
      vy = -0.6;
      len = 1;
    }
    tx[i] = vx / len;
    ty[i] = vy / len;
  }
  const noise = gaussBlur(whiteNoise(ww, wh, 61), ww, wh, Math.max(0.6, 0.9 * s));
  const steps = Math.max(3, Math.round(7 * s));
  const strokes = new Float32Array(n);
  for (let y = 0; y < wh; y++) {
    for (let x = 0; x < ww; x++) {
      const i = y * ww + x;
      let acc = noise[i];
      for (const dir of [1, -1]) {
        let px = x;
        let py = y;
        let dx = tx[i] * dir;
        let dy = ty[i] * dir;
        for (let k = 0; k < steps; k++) {
          px += dx;
          py += dy;
          const xi = Math.round(px);
          const yi = Math.round(py);
          if (xi < 0 || yi < 0 || xi >= ww || yi >= wh) break;
          const j = yi * ww + xi;
          acc += noise[j];
          // keep direction consistent (tangent field has sign ambiguity)
          const ndx = tx[j];
          const ndy = ty[j];
          if (ndx * dx + ndy * dy < 0) {
            dx = -ndx;
            dy = -ndy;
          } else {
            dx = ndx;
            dy = ndy;
          }
        }
      }
      strokes[i] = acc / (2 * steps + 1);
    }
  }
  const out = upTo(painted, w, h);
  const sc = scaleOf(w, h);
  const H = resizePlane(strokes, ww, wh, w, h);
  const Lf = resizePlane(L, ww, wh, w, h);
  const off = Math.max(1, Math.round(sc));
  const { r, g, b } = out;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const xa = Math.max(0, x - off);
      const ya = Math.max(0, y - off);
      const xb = Math.min(w - 1, x + off);
      const yb = Math.min(h - 1, y + off);
      const hA = H[ya * w + xa] * 1.0 + Lf[ya * w + xa] * 0.15;
      const hB = H[yb * w + xb] * 1.0 + Lf[yb * w + xb] * 0.15;
      const relief = (hB - hA) * 1.1;
      const weave = 0.012 * Math.sin(x * 2.1) * Math.sin(y * 2.1);
      const shade = 1 + relief + weave;
      const spec = relief > 0.02 ? (relief - 0.02) * 0.35 : 0;
      r[i] = r[i] * shade + spec;
      g[i] = g[i] * shade + spec;
      b[i] = b[i] * shade + spec * 0.9;
    }
  }
  return out;
}
