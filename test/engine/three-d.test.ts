/**
 * The `3d` style as a stylised render of the photo's own geometry, not a mask: features kept (Sobel energy in the
 * face box), the complexion's saturation kept, no moiré on fine stripes, no catchlights on eyes the photo does not
 * show, faces still the same person (engine/likeness.ts). Properties measured on the fixtures at 1024 px.
 */
import sharp from 'sharp';
import {
  analyzePhoto,
  applyStyle,
  closeAnalysisThread,
  closeStylePool,
  type DecodedImage,
  decodeInput,
  hasPeople,
  renderStyle,
} from '../../engine';
import { faceRegionsAt, type Scene } from '../../engine/analysis/scene';
import { LIKENESS_THRESHOLD, likeness } from '../../engine/likeness';
import { createRaster } from '../../engine/raster';
import { eyesSeen } from '../../engine/renderers/three-d-eyes';
import { personFocus } from '../../engine/renderers/three-d-focus';
import { photo } from './helpers';
import { stripeProfile, stripes } from './stripes';

afterAll(() => Promise.all([closeStylePool(), closeAnalysisThread()]));

const PORTRAITS = ['astronaut.png', 'grace_hopper.jpg', 'camera.png'];
const SIZE = 1024;

/** Rec. 709 luma of pixel i of interleaved RGB8, 0..1. */
const lumaAt = (d: Uint8Array, i: number) => (0.2126 * d[i * 3] + 0.7152 * d[i * 3 + 1] + 0.0722 * d[i * 3 + 2]) / 255;

/** Each portrait's analysis, once: the tests below read it, as an order's renders share the server's cached one. */
const analyses = new Map<string, Promise<Scene>>();
function analysed(name: string): Promise<Scene> {
  let a = analyses.get(name);
  if (!a) {
    a = analyzePhoto(photo(name)).then((found) => {
      if (!hasPeople(found)) throw new Error(`no face in ${name}`);
      return found;
    });
    analyses.set(name, a);
  }
  return a;
}

/** A portrait as a paid render sees it at 1024 px (enlarged), its analysis, and its 3d render: once each. */
const renders = new Map<string, Promise<{ img: DecodedImage; a: Scene; out: Uint8Array }>>();
function rendered(name: string): Promise<{ img: DecodedImage; a: Scene; out: Uint8Array }> {
  let r = renders.get(name);
  if (!r) {
    r = analysed(name).then(async (a) => {
      const img = await decodeInput(photo(name), { maxSize: SIZE, enlarge: true });
      return { img, a, out: applyStyle(img, '3d', a).data };
    });
    renders.set(name, r);
  }
  return r;
}

/** Sum of squared Sobel gradient magnitudes of the luma inside box [x, y, w, h] (image pixels). */
function sobelEnergy(d: Uint8Array, w: number, h: number, box: number[]): number {
  const [bx, by, bw, bh] = box;
  let e = 0;
  for (let y = Math.max(1, Math.floor(by)); y < Math.min(h - 1, by + bh); y++) {
    for (let x = Math.max(1, Math.floor(bx)); x < Math.min(w - 1, bx + bw); x++) {
      const p = (dx: number, dy: number) => lumaAt(d, (y + dy) * w + x + dx);
      const gx = p(1, -1) + 2 * p(1, 0) + p(1, 1) - p(-1, -1) - 2 * p(-1, 0) - p(-1, 1);
      const gy = p(-1, 1) + 2 * p(0, 1) + p(1, 1) - p(-1, -1) - 2 * p(0, -1) - p(1, -1);
      e += gx * gx + gy * gy;
    }
  }
  return e;
}

/** HSV saturation of pixel i. */
function sat(d: Uint8Array, i: number): number {
  const hi = Math.max(d[i * 3], d[i * 3 + 1], d[i * 3 + 2]);
  return hi ? (hi - Math.min(d[i * 3], d[i * 3 + 1], d[i * 3 + 2])) / hi : 0;
}

describe('3d keeps the face a face', () => {
  it("keeps noses, glasses and brows: the face box holds at least 0.7 of the photo's Sobel energy", async () => {
    // measured at 1024 px: astronaut 1.13, grace_hopper (glasses; her wrinkles smoothed) 0.85, camera 1.31; the
    // clay-mask renderer before gave 0.85, 0.44 (glasses erased) and 0.73
    for (const name of PORTRAITS) {
      const { img, a, out } = await rendered(name);
      const k = img.width / a.width;
      const box = a.faces[0].box.map((v) => v * k);
      const share = sobelEnergy(out, img.width, img.height, box) / sobelEnergy(img.data, img.width, img.height, box);
      expect([name, share >= 0.7]).toEqual([name, true]);
    }
  });

  it("keeps the complexion's saturation within 0.05 and 1.15x of the photo's (no orange push)", async () => {
    // measured: astronaut 0.345 -> 0.350, grace_hopper 0.544 -> 0.558; camera (grey) 0 -> 0.010; before,
    // 0.345 -> 0.437, 0.544 -> 0.592, 0 -> 0.190
    for (const name of PORTRAITS) {
      const { img, a, out } = await rendered(name);
      const { skin } = faceRegionsAt(a, img.width, img.height, 1);
      let [before, after, n] = [0, 0, 0];
      for (let i = 0; i < skin.length; i++) {
        if (skin[i] <= 0.9) continue;
        [before, after, n] = [before + sat(img.data, i), after + sat(out, i), n + 1];
      }
      [before, after] = [before / n, after / n];
      expect([name, Math.abs(after - before) <= 0.05]).toEqual([name, true]);
      expect([name, after <= before * 1.15 + 0.02]).toEqual([name, true]);
    }
  });

  it('paints no catchlights on eyes the photo does not show (sunglasses), and does on eyes it shows', async () => {
    const { img, a, out } = await rendered('astronaut.png');
    const f = a.faces[0];
    const k = img.width / a.width;
    const eyes = [f.eyes.left, f.eyes.right];
    // brightest pixel inside each eye's iris circle in the render
    const brightest = (d: Uint8Array) => {
      let m = 0;
      for (const e of eyes) {
        const [cx, cy, r] = [e.center[0] * k, e.center[1] * k, e.irisRadius * k];
        for (let y = Math.floor(cy - r); y <= cy + r; y++)
          for (let x = Math.floor(cx - r); x <= cx + r; x++)
            if (Math.hypot(x + 0.5 - cx, y + 0.5 - cy) <= r) m = Math.max(m, lumaAt(d, y * img.width + x));
      }
      return m;
    };
    expect(eyesSeen(f, img, a)).toBe(true);
    expect(brightest(out)).toBeGreaterThan(0.75); // the catchlight (the photo's irises peak at about 0.5)
    // sunglasses: black lenses over both eyes, the analysis as it was (the mesh still places eyes behind them)
    const dark = Buffer.from(img.data);
    for (const e of eyes) {
      const [cx, cy, rx] = [e.center[0] * k, e.center[1] * k, 0.95 * e.width * k];
      for (let y = Math.floor(cy - rx); y <= cy + rx; y++) {
        for (let x = Math.floor(cx - rx); x <= cx + rx; x++) {
          if (Math.hypot((x + 0.5 - cx) / rx, (y + 0.5 - cy) / (0.7 * rx)) > 1) continue;
          dark.fill(8, (y * img.width + x) * 3, (y * img.width + x) * 3 + 3);
        }
      }
    }
    const shades = { data: dark, width: img.width, height: img.height };
    expect(eyesSeen(f, shades, a)).toBe(false);
    expect(brightest(applyStyle(shades, '3d', a).data)).toBeLessThan(0.2);
  });

  it(`keeps every portrait the same person at ${SIZE} px (likeness >= the model's threshold)`, async () => {
    // measured: astronaut 0.87, grace_hopper 1.00, camera 1.00 (before: 0.40, 0.60, 0.68)
    for (const name of PORTRAITS) {
      const bytes = photo(name);
      const png = await renderStyle(bytes, '3d', { maxSize: SIZE, enlarge: true, analysis: await analysed(name) });
      const { faces } = await likeness(bytes, png);
      expect(faces).toHaveLength(1);
      expect([name, faces[0].similarity >= LIKENESS_THRESHOLD]).toEqual([name, true]);
    }
  });
});

describe('3d on fine textures', () => {
  it("blurs the backdrop from backdrop pixels only: no halo of the subject's colours, the rim light inside the silhouette", () => {
    const [w, h] = [160, 120];
    const lit = createRaster(w, h);
    const person = new Float32Array(w * h);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        const inside = Math.hypot(x - 80, y - 60) < 35;
        person[i] = inside ? 1 : 0;
        lit.r[i] = lit.g[i] = lit.b[i] = inside ? 0.05 : 0.8; // a dark helmet before a light wall
      }
    }
    personFocus(person, lit, w, h, 1, 6);
    let worst = 0;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const d = Math.hypot(x - 80, y - 60);
        if (d < 36 || d > 48) continue;
        // the wall as it is, or hazed a little (0.94 v + 0.06 haze): never darkened by the helmet, nor lit by the rim
        worst = Math.max(worst, Math.abs(lit.g[y * w + x] - 0.8));
      }
    }
    expect(worst).toBeLessThan(0.02);
  });

  it('neither amplifies fine stripes nor turns them into a beat pattern (moiré)', () => {
    // measured (amplitude of 0.30 in the photo; beat 0.0004-0.0071 there): amplitude 0.001-0.31, beat at most
    // 0.0054 over the photo's; the renderer before amplified 7-px stripes to 0.37 and beat 0.0123 over at 4.4 px
    for (const p of [2.3, 3.1, 4.4, 7]) {
      for (const vertical of [true, false]) {
        const img = stripes(p, vertical);
        const before = stripeProfile(img.data, p, vertical);
        const after = stripeProfile(applyStyle(img, '3d', null).data, p, vertical);
        expect([p, vertical, after.amplitude <= before.amplitude * 1.05]).toEqual([p, vertical, true]);
        expect([p, vertical, after.beat <= before.beat + 0.0065]).toEqual([p, vertical, true]);
      }
    }
  });
});

describe('3d at every size', () => {
  it('renders 256, 1024 and 2048 px, the same bytes every time', async () => {
    const bytes = photo('astronaut.png');
    const analysis = await analysed('astronaut.png');
    for (const size of [256, 1024, 2048]) {
      const png = await renderStyle(bytes, '3d', { maxSize: size, enlarge: true, analysis });
      const meta = await sharp(png).metadata();
      expect([meta.width, meta.height]).toEqual([size, size]);
      if (size === 256) expect(png.equals(await renderStyle(bytes, '3d', { maxSize: size, analysis }))).toBe(true);
    }
  });
});
