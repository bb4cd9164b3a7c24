/**
 * The photo analysis (people and faces) and what the styles do with it: properties, not timings.
 */
import sharp from 'sharp';
import {
  type Analysis,
  analysisFromJson,
  analysisToJson,
  analyzeImage,
  analyzePhoto,
  applyStyle,
  closeAnalysisThread,
  closeStylePool,
  decodeInput,
  hasPeople,
  renderAllThumbnails,
  renderStyle,
  renderThumbnail,
  STYLE_IDS,
} from '../../engine';
import { personAt } from '../../engine/analysis/scene';
import {
  enlargeEyes,
  eyeWarps,
  MAX_EYE_ENLARGE,
  warpPoint,
  warpScene,
  warpSource,
} from '../../engine/filters/eye-warp';
import { correlation, edgeMap } from '../../engine/quality-gate';
import { photo, smallPhoto } from './helpers';

afterAll(() => Promise.all([closeStylePool(), closeAnalysisThread()]));

const interIris = (a: Analysis) => {
  const { left, right } = a.faces[0].eyes;
  return Math.hypot(left.center[0] - right.center[0], left.center[1] - right.center[1]);
};

/** The astronaut's head, cropped and enlarged to 512 px: a portrait whose eyes the models see well. */
async function portrait(): Promise<Buffer> {
  return sharp(photo('astronaut.png'))
    .extract({ left: 150, top: 30, width: 180, height: 180 })
    .resize(512, 512)
    .png()
    .toBuffer();
}

// Analysed once each for the tests that read them (the analysis' determinism is a test of its own below).
let astronautAnalysis: Promise<Analysis> | undefined;
const astronautAnalysed = () => (astronautAnalysis ??= analyzePhoto(photo('astronaut.png')));
let portraitAnalysis: Promise<{ img: Awaited<ReturnType<typeof decodeInput>>; a: Analysis }> | undefined;
const portraitAnalysed = () =>
  (portraitAnalysis ??= portrait().then(async (bytes) => {
    const img = await decodeInput(bytes, { maxSize: 512 });
    return { img, a: await analyzeImage(img) };
  }));

/** Mean absolute Laplacian of the luma over the pixels `sel` picks (high-frequency energy). */
function hfEnergy(data: Uint8Array, w: number, h: number, sel: (i: number) => boolean): number {
  const luma = (k: number) => 0.2126 * data[k * 3] + 0.7152 * data[k * 3 + 1] + 0.0722 * data[k * 3 + 2];
  let s = 0;
  let n = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      if (!sel(i)) continue;
      s += Math.abs(4 * luma(i) - luma(i - 1) - luma(i + 1) - luma(i - w) - luma(i + w));
      n++;
    }
  }
  return s / n;
}

describe('photo analysis', () => {
  let astronaut: Analysis;
  let chelsea: Analysis;
  beforeAll(async () => {
    astronaut = await astronautAnalysed();
    chelsea = await analyzePhoto(photo('chelsea.png'));
  });

  it('finds the face in astronaut.png, with landmarks, eyes and irises where a face has them', () => {
    expect(astronaut.faces).toHaveLength(1);
    const f = astronaut.faces[0];
    expect(f.score).toBeGreaterThan(0.5);
    expect(f.landmarks).toHaveLength(468);
    const [bx, by, bw, bh] = f.box;
    // the face is in the upper middle of the picture (256 x 256 analysis image)
    expect(bx + bw / 2).toBeGreaterThan(90);
    expect(bx + bw / 2).toBeLessThan(140);
    expect(by + bh / 2).toBeLessThan(100);
    const { left, right } = f.eyes;
    expect(left.center[0]).toBeLessThan(right.center[0]);
    for (const e of [left, right]) {
      // the iris lies between the eye's corners, in the upper half of the face
      expect(e.center[0]).toBeGreaterThan(Math.min(e.corners[0][0], e.corners[1][0]));
      expect(e.center[0]).toBeLessThan(Math.max(e.corners[0][0], e.corners[1][0]));
      expect(e.center[1]).toBeLessThan(by + bh / 2);
      expect(e.width).toBeGreaterThan(bw * 0.12);
      expect(e.width).toBeLessThan(bw * 0.35);
      expect(e.irisRadius).toBeGreaterThan(e.width * 0.1);
      expect(e.irisRadius).toBeLessThan(e.width * 0.4);
      expect(e.open).toBeGreaterThan(0.2); // she is smiling with open eyes
    }
    expect(interIris(astronaut)).toBeGreaterThan(bw * 0.3);
    expect(interIris(astronaut)).toBeLessThan(bw * 0.6);
  });

  it('masks the person: high on her face and suit, low on the background', () => {
    expect(hasPeople(astronaut)).toBe(true);
    const m = astronaut.mask!;
    const at = (x: number, y: number) => m.data[Math.round(y) * m.width + Math.round(x)];
    const [bx, by, bw, bh] = astronaut.faces[0].box;
    expect(at(bx + bw / 2, by + bh / 2)).toBeGreaterThan(200);
    expect(at(100, 200)).toBeGreaterThan(200); // the orange suit
    expect(at(240, 10)).toBeLessThan(40); // the wall top right
    expect(astronaut.coverage).toBeGreaterThan(0.2);
    expect(astronaut.coverage).toBeLessThan(0.8);
  });

  it('finds no face in chelsea.png (a cat), and then keeps no mask', () => {
    expect(chelsea.faces).toHaveLength(0);
    expect(chelsea.mask).toBeNull();
    expect(chelsea.coverage).toBe(0);
    expect(hasPeople(chelsea)).toBe(false);
  });

  it('is deterministic and survives its JSON form', async () => {
    const again = await analyzePhoto(photo('astronaut.png'));
    expect(analysisToJson(again)).toBe(analysisToJson(astronaut));
    const back = analysisFromJson(analysisToJson(astronaut));
    expect(back.mask!.data).toEqual(astronaut.mask!.data);
    expect(analysisToJson(back)).toBe(analysisToJson(astronaut));
    expect(() => analysisFromJson('{"version":2}')).toThrow();
  });

  it('a photo without people renders the same bytes as the path without analysis, in every style', async () => {
    const bytes = await smallPhoto('chelsea.png', 200);
    const analysis = await analyzePhoto(bytes); // no face: what renderStyle computes (below, for 3d) and uses
    expect(hasPeople(analysis)).toBe(false);
    expect((await renderStyle(bytes, '3d')).equals(await renderStyle(bytes, '3d', { analysis }))).toBe(true);
    for (const id of STYLE_IDS) {
      const withAnalysis = await renderStyle(bytes, id, { analysis });
      const without = await renderStyle(bytes, id, { analysis: null });
      expect(withAnalysis.equals(without)).toBe(true);
    }
    const all = await renderAllThumbnails(bytes, { size: 128 });
    const none = await renderAllThumbnails(bytes, { size: 128, analysis: null });
    all.forEach((t, k) => {
      expect(t.png.equals(none[k].png)).toBe(true);
    });
  });

  it('every style uses it on people, deterministically (worker threads and the calling thread agree)', async () => {
    const bytes = await smallPhoto('astronaut.png', 256);
    const a = await analyzePhoto(bytes);
    const all = await renderAllThumbnails(bytes, { analysis: a });
    const blind = await renderAllThumbnails(bytes, { analysis: null });
    for (let k = 0; k < STYLE_IDS.length; k++) {
      expect(all[k].png.equals(blind[k].png)).toBe(false); // the analysis changes every style on a portrait
      // a preview rendered alone (renderStyle would also keep the faces: paid renders only)
      expect(all[k].png.equals(await renderThumbnail(bytes, STYLE_IDS[k], { analysis: a }))).toBe(true);
    }
  });

  it("a preview's analysis source: `compute` gives the photo's analysis (the preview's own decode), or the source's is used", async () => {
    // larger than the detail size, so the preview is shrunk from the analysis' decode
    const bytes = await sharp(photo('astronaut.png')).resize(1400).jpeg({ quality: 92 }).toBuffer();
    let computed: Analysis | undefined;
    const all = await renderAllThumbnails(bytes, {
      analysis: async (compute) => {
        computed = await compute();
        return computed;
      },
    });
    expect(computed).toEqual(await analyzePhoto(bytes));
    // a source that has it (the model server's cache) answers without computing: the same previews
    const cached = computed as Analysis;
    const again = await renderAllThumbnails(bytes, { analysis: async () => cached });
    expect(again.map((t) => [t.styleId, t.png.equals(all[STYLE_IDS.indexOf(t.styleId)].png)])).toEqual(
      STYLE_IDS.map((id) => [id, true]),
    );
  });
});

describe('3d on a portrait', () => {
  it('enlarges the eyes by a fold-free warp that keeps the irises in place', async () => {
    const { img, a } = await portraitAnalysed();
    if (!hasPeople(a)) throw new Error('no face in the portrait');
    const warps = eyeWarps(a, img.width, 0.34);
    const k = img.width / a.width;
    for (const [e, wp] of [a.faces[0].eyes.left, a.faces[0].eyes.right].map((e, i) => [e, warps[i]] as const)) {
      // the iris centre is a fixed point; the corners move apart by at least 15 %
      const c = warpPoint(warps, [e.center[0] * k, e.center[1] * k]);
      expect(Math.hypot(c[0] - wp.cx, c[1] - wp.cy)).toBeLessThan(0.01);
      const [p, q] = e.corners.map((p) => warpPoint(warps, [p[0] * k, p[1] * k]));
      expect(Math.hypot(p[0] - q[0], p[1] - q[1])).toBeGreaterThanOrEqual(1.15 * e.width * k);
      // warpPoint inverts warpSource
      const back = warpSource(warps, p[0], p[1]);
      expect(Math.hypot(back[0] - e.corners[0][0] * k, back[1] - e.corners[0][1] * k)).toBeLessThan(0.01);
    }
    // fold-free: the sampling map's Jacobian is positive everywhere around the eyes, at the largest allowed amount
    const strong = eyeWarps(a, img.width, MAX_EYE_ENLARGE * 0.999);
    let minDet = Infinity;
    for (let y = 0; y < img.height; y += 0.5) {
      for (let x = 0; x < img.width; x += 0.5) {
        const [x0, y0] = warpSource(strong, x, y);
        const [x1, y1] = warpSource(strong, x + 0.01, y);
        const [x2, y2] = warpSource(strong, x, y + 0.01);
        minDet = Math.min(minDet, ((x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)) / 1e-4);
      }
    }
    expect(minDet).toBeGreaterThan(0);
    expect(() => eyeWarps(a, img.width, MAX_EYE_ENLARGE * 1.01)).toThrow(RangeError);
    // the warp only touches the eyes' surroundings
    const warped = enlargeEyes(img, warps);
    expect(
      Buffer.from(warped.data)
        .subarray(0, img.width * 3 * 40)
        .equals(Buffer.from(img.data).subarray(0, img.width * 3 * 40)),
    ).toBe(true);
  });

  it('moves the face with the warp: corners and lid landmarks out, iris centres and the rest of the face where they were', async () => {
    const { img, a } = await portraitAnalysed();
    if (!hasPeople(a)) throw new Error('no face in the portrait');
    const warps = eyeWarps(a, img.width, 0.34);
    const moved = warpScene(a, warps, img.width);
    const k = img.width / a.width;
    const [f, g] = [a.faces[0], moved.faces[0]];
    for (const side of ['left', 'right'] as const) {
      expect(g.eyes[side].center).toEqual(f.eyes[side].center);
      expect(g.eyes[side].width).toBeGreaterThanOrEqual(1.15 * f.eyes[side].width);
      const p = warpPoint(warps, [f.eyes[side].corners[0][0] * k, f.eyes[side].corners[0][1] * k]);
      expect(Math.hypot(g.eyes[side].corners[0][0] * k - p[0], g.eyes[side].corners[0][1] * k - p[1])).toBeLessThan(
        1e-9,
      );
    }
    // the chin (152) is far from the eyes: untouched; an upper lid point (159) moves up
    expect(g.landmarks[152]).toEqual(f.landmarks[152]);
    expect(g.landmarks[159][1]).toBeLessThan(f.landmarks[159][1] - 0.5);
  });

  // The models' eye widths on the output are not asserted: Face Mesh and Iris regress eye corners relative to
  // their face-normalised crops and report a ×1.34 zoomed eye as about as wide as before (measured: -2 % to +8 %).
  it('re-analysed, the output still has the face, with the irises where they were', async () => {
    const { img, a } = await portraitAnalysed();
    const out = applyStyle(img, '3d', a);
    const b = await analyzeImage(out);
    expect(b.faces).toHaveLength(1);
    expect(Math.abs(interIris(b) / interIris(a) - 1)).toBeLessThan(0.04);
    for (const side of ['left', 'right'] as const) {
      const [p, q] = [a.faces[0].eyes[side].center, b.faces[0].eyes[side].center];
      expect(Math.hypot(p[0] - q[0], p[1] - q[1])).toBeLessThan(0.25 * a.faces[0].eyes[side].width);
    }
  });

  it('simplifies the background far more than the subject (high-frequency energy ratio at least halved)', async () => {
    const bytes = photo('astronaut.png');
    const a = await astronautAnalysed();
    if (!hasPeople(a)) throw new Error('no person');
    const img = await decodeInput(bytes, { maxSize: 512 });
    const m = personAt(a, img.width, img.height);
    const bg = (i: number) => m[i] < 0.05;
    const fg = (i: number) => m[i] > 0.95;
    const ratio = (d: Uint8Array) => hfEnergy(d, img.width, img.height, bg) / hfEnergy(d, img.width, img.height, fg);
    // measured: 3d 0.46 (0.32 while it blurred the backdrop hard), sketch 0.44, pop art 0.45; anime and comic keep
    // their backdrop's shapes (below)
    const limits: Partial<Record<(typeof STYLE_IDS)[number], number>> = {
      '3d': 0.5,
      sketch: 0.5,
      'pop-art': 0.5,
    };
    const over: [string, number][] = [];
    for (const [id, limit] of Object.entries(limits)) {
      const change = ratio(applyStyle(img, id, a).data) / ratio(applyStyle(img, id, null).data);
      if (!(change <= (limit as number))) over.push([id, change]);
    }
    expect(over).toEqual([]);
  });

  it('anime and comic keep the shapes behind people (the shuttle beside the astronaut) as they do without people', async () => {
    const bytes = photo('astronaut.png');
    const a = await astronautAnalysed();
    if (!hasPeople(a)) throw new Error('no person');
    const img = await decodeInput(bytes, { maxSize: 512 });
    expect(img.width).toBe(img.height); // edgeMap takes a square
    const n = img.width;
    const m = personAt(a, n, n);
    const bg = Array.from({ length: n * n }, (_, i) => i).filter((i) => m[i] < 0.05);
    const edges = (d: Uint8Array) => {
      const grey = new Float32Array(n * n);
      for (let i = 0; i < n * n; i++) grey[i] = 0.299 * d[3 * i] + 0.587 * d[3 * i + 1] + 0.114 * d[3 * i + 2];
      const e = edgeMap(grey, n);
      return bg.map((i) => e[i]);
    };
    const photoEdges = edges(img.data);
    // The backdrop's edges against the photo's, with people found and without. Measured: anime 0.62 and 0.66, comic
    // 0.65 and 0.65; 0.54 and 0.53 while the backdrop behind people was abstracted (the shuttle became a blob).
    const lost: [string, number][] = [];
    for (const id of ['anime', 'comic'] as const) {
      const withPeople = correlation(photoEdges, edges(applyStyle(img, id, a).data));
      const without = correlation(photoEdges, edges(applyStyle(img, id, null).data));
      if (!(withPeople >= 0.9 * without)) lost.push([id, withPeople / without]);
    }
    expect(lost).toEqual([]);
  });
});
