/**
 * Cleaning up a label image after quantisation (cel.ts): islands merged into their neighbours, thin strips of a
 * third label between two others split between them.
 */
import type { Raster } from '../raster';

/**
 * Merge 4-connected regions smaller than minArea into the neighbouring label they share the
 * longest border with. In place. O(N).
 */
export function mergeSmallRegions(labels: Uint16Array, w: number, h: number, minArea: number, numLabels: number): void {
  if (minArea <= 1) return;
  const n = w * h;
  const comp = new Int32Array(n).fill(-1);
  const stack = new Int32Array(n);
  const members = new Int32Array(n);
  const border = new Uint32Array(numLabels);
  const near = new Int32Array(4 * minArea);
  // each pixel's column, looked up (an integer division per visit cost a tenth of the merge)
  const col = new Int32Array(n);
  for (let y = 0, i = 0; y < h; y++) for (let x = 0; x < w; x++, i++) col[i] = x;
  for (let start = 0; start < n; start++) {
    if (comp[start] !== -1) continue;
    const lab = labels[start];
    let sp = 0;
    let cnt = 0;
    stack[sp++] = start;
    comp[start] = start;
    while (sp > 0) {
      const i = stack[--sp];
      members[cnt++] = i;
      const x = col[i];
      if (x > 0 && comp[i - 1] === -1 && labels[i - 1] === lab) {
        comp[i - 1] = start;
        stack[sp++] = i - 1;
      }
      if (x < w - 1 && comp[i + 1] === -1 && labels[i + 1] === lab) {
        comp[i + 1] = start;
        stack[sp++] = i + 1;
      }
      if (i >= w && comp[i - w] === -1 && labels[i - w] === lab) {
        comp[i - w] = start;
        stack[sp++] = i - w;
      }
      if (i < n - w && comp[i + w] === -1 && labels[i + w] === lab) {
        comp[i + w] = start;
        stack[sp++] = i + w;
      }
    }
    if (cnt >= minArea) continue;
    // its members' neighbours, in the order they are voted for (no closure: one over this loop's variables made V8
    // allocate them afresh for every pixel, 20 MB of garbage a comic render)
    let m = 0;
    for (let j = 0; j < cnt; j++) {
      const i = members[j];
      const x = col[i];
      if (x > 0) near[m++] = i - 1;
      if (x < w - 1) near[m++] = i + 1;
      if (i >= w) near[m++] = i - w;
      if (i < n - w) near[m++] = i + w;
    }
    const best = borderVote(labels, near, m, lab, border);
    if (best >= 0) for (let j = 0; j < cnt; j++) labels[members[j]] = best;
  }
}

/**
 * The label a small region joins: of the labels other than its own (`lab`) among the neighbours `near[0 .. m)`, the
 * one counted most often; each neighbour counts one more border pixel for its label, and ties go to the first label
 * to reach a count. -1 when there is none.
 */
function borderVote(labels: Uint16Array, near: Int32Array, m: number, lab: number, border: Uint32Array): number {
  border.fill(0);
  let best = -1;
  let bestC = 0;
  for (let k = 0; k < m; k++) {
    const l2 = labels[near[k]];
    if (l2 === lab) continue;
    const c = ++border[l2];
    if (c > bestC) {
      bestC = c;
      best = l2;
    }
  }
  return best;
}

/**
 * Anti-aliased borders: every run of at most `maxWidth` equal labels (along rows, then along columns) that sits
 * between two different labels and whose mean colour lies between theirs (a blend of the two, not a colour of
 * its own, such as a dark mast against the sky) is split between them: its first half joins the label before
 * it, the rest the label after it, so the border moves to the middle of the strip. In place.
 */
export function dissolveThinStrips(labels: Uint16Array, img: Raster, numLabels: number, maxWidth: number): void {
  const { width: w, height: h } = img;
  const mean = labelMeans(labels, [img.r, img.g, img.b], numLabels);
  const isBlend = (s: number, a: number, b: number): boolean => {
    const dr = mean[b * 3] - mean[a * 3];
    const dg = mean[b * 3 + 1] - mean[a * 3 + 1];
    const db = mean[b * 3 + 2] - mean[a * 3 + 2];
    const len2 = dr * dr + dg * dg + db * db;
    if (len2 < 1e-6) return false;
    const sr = mean[s * 3] - mean[a * 3];
    const sg = mean[s * 3 + 1] - mean[a * 3 + 1];
    const sb = mean[s * 3 + 2] - mean[a * 3 + 2];
    const t = (sr * dr + sg * dg + sb * db) / len2;
    if (t < 0.05 || t > 0.95) return false;
    const pr = sr - t * dr;
    const pg = sg - t * dg;
    const pb = sb - t * db;
    return pr * pr + pg * pg + pb * pb < 0.16 * len2; // off the line by less than 0.4 of the step
  };
  // a run of equal labels that ended just before `end`: split it if it is a thin blend between its neighbours
  const split = (o: number, step: number, len: number, start: number, end: number, lab: number) => {
    const run = end - start;
    if (start === 0 || end >= len || run > maxWidth) return;
    const before = labels[o + (start - 1) * step];
    const after = labels[o + end * step];
    if (before === after || !isBlend(lab, before, after)) return;
    const half = start + (run >> 1);
    for (let k = start; k < end; k++) labels[o + k * step] = k < half ? before : after;
  };
  // along rows
  for (let y = 0; y < h; y++) {
    const o = y * w;
    let start = 0;
    for (let x = 1; x <= w; x++) {
      if (x < w && labels[o + x] === labels[o + start]) continue;
      split(o, 1, w, start, x, labels[o + start]);
      start = x;
    }
  }
  // along columns, walked row by row (in memory order) with each column's open run: the same runs, splits and
  // order of reads as walking each column down in turn, since a split only changes its own column above the row
  const runStart = new Int32Array(w);
  const runLab = new Uint16Array(w);
  runLab.set(labels.subarray(0, w));
  for (let y = 1; y <= h; y++) {
    const o = y * w;
    for (let x = 0; x < w; x++) {
      if (y < h && labels[o + x] === runLab[x]) continue;
      split(x, w, h, runStart[x], y, runLab[x]);
      if (y < h) {
        runStart[x] = y;
        runLab[x] = labels[o + x];
      }
    }
  }
}

/** Mean of each plane per label: `planes.length` values per label, label-major. Empty labels read 0. */
export function labelMeans(labels: Uint16Array, planes: readonly Float32Array[], numLabels: number): Float32Array {
  const np = planes.length;
  const sum = new Float64Array(numLabels * (np + 1));
  if (np === 3 || np === 4) {
    // the usual planes (colour, and luma for the bands) without an inner loop over them: the same adds
    const [p0, p1, p2, p3 = p0] = planes;
    const four = np === 4;
    for (let i = 0; i < labels.length; i++) {
      const o = labels[i] * (np + 1);
      sum[o] += p0[i];
      sum[o + 1] += p1[i];
      sum[o + 2] += p2[i];
      if (four) sum[o + 3] += p3[i];
      sum[o + np]++;
    }
  } else {
    for (let i = 0; i < labels.length; i++) {
      const o = labels[i] * (np + 1);
      for (let c = 0; c < np; c++) sum[o + c] += planes[c][i];
      sum[o + np]++;
    }
  }
  const out = new Float32Array(numLabels * np);
  for (let l = 0; l < numLabels; l++) {
    const cnt = sum[l * (np + 1) + np] || 1;
    for (let c = 0; c < np; c++) out[l * np + c] = sum[l * (np + 1) + c] / cnt;
  }
  return out;
}
