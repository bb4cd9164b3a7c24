import sharp from 'sharp';
import { type Analysis, analyzePhoto, renderStyle, STYLE_IDS } from '../../engine';
import {
  coveringColours,
  inkLinesOnEdges,
  lumaOf,
  meanAbsDiff,
  neighbourEquality,
  type Pixels,
  pixels,
  smallPhoto,
} from './helpers';

const FLAT = ['comic', 'pop-art', 'anime', 'pixel-art'];
const LINES = ['comic', 'sketch', 'anime'];

let astronaut: Buffer;
let cat: Buffer;
let coffee: Buffer;
const inputs: Record<string, Pixels> = {};
const outputs: Record<string, Record<string, Pixels>> = {};
/** The cat's renders as PNG bytes, and its analysis: the determinism test renders it again to the same bytes. */
const catPngs: Record<string, Buffer> = {};
let catAnalysis: Analysis;

beforeAll(async () => {
  astronaut = await smallPhoto('astronaut.png', 320);
  cat = await smallPhoto('chelsea.png', 320);
  coffee = await smallPhoto('coffee.png', 320);
  for (const [name, bytes] of Object.entries({ astronaut, cat, coffee })) {
    inputs[name] = await pixels(bytes);
    outputs[name] = {};
    const analysis = await analyzePhoto(bytes); // once per photo, as the server caches it
    for (const id of STYLE_IDS) {
      const png = await renderStyle(bytes, id, { analysis });
      outputs[name][id] = await pixels(png);
      if (name === 'cat') catPngs[id] = png;
    }
    if (name === 'cat') catAnalysis = analysis;
  }
});

// The tests below that are about the input or the output rules, or a style on a drawing without people, render
// with `analysis: null`: the analysis changes nothing there (a photo without people renders the same bytes without
// one, analysis.test.ts), and each one computed cost a model run.

describe.each(STYLE_IDS.map((id) => [id]))('style %s', (id) => {
  it('keeps the size and visibly changes every photo', () => {
    for (const name of Object.keys(inputs)) {
      const out = outputs[name][id];
      expect([out.width, out.height]).toEqual([inputs[name].width, inputs[name].height]);
      expect(meanAbsDiff(inputs[name], out)).toBeGreaterThan(0.035);
    }
  });

  it('is deterministic (identical bytes for the same input)', async () => {
    // rendered again, after every other style's renders in between: the same bytes as in beforeAll
    expect((await renderStyle(cat, id, { analysis: catAnalysis })).equals(catPngs[id])).toBe(true);
  });

  if (FLAT.includes(id)) {
    it('reduces the colour count markedly (flat colour)', () => {
      for (const name of Object.keys(inputs)) {
        const before = coveringColours(inputs[name]);
        const after = coveringColours(outputs[name][id]);
        expect(after).toBeLessThan(id === 'comic' || id === 'pop-art' ? 250 : 60);
        expect(after * 50).toBeLessThan(before);
      }
    });
  }

  if (LINES.includes(id)) {
    it('draws dark ink lines along strong edges', () => {
      for (const name of ['cat', 'coffee']) {
        const photoScore = inkLinesOnEdges(inputs[name], inputs[name], 0.3);
        const score = inkLinesOnEdges(inputs[name], outputs[name][id], 0.3);
        expect(score).toBeGreaterThan(0.35);
        expect(score).toBeGreaterThan(photoScore + 0.15);
      }
    });
  }
});

describe('style specifics', () => {
  it('sketch is greyscale', () => {
    for (const name of Object.keys(inputs)) {
      const { data } = outputs[name].sketch;
      let maxDiff = 0;
      for (let i = 0; i < data.length; i += 3) {
        maxDiff = Math.max(maxDiff, Math.abs(data[i] - data[i + 1]), Math.abs(data[i + 1] - data[i + 2]));
      }
      expect(maxDiff).toBeLessThanOrEqual(1);
    }
  });

  it('sketch hatches by hand: strokes of varying pressure with gaps, not evenly ruled lines', async () => {
    // On an even mid-grey, ruled hatching darkens every 16-px block alike (block sd 0.6 of 255); hand strokes do not.
    const W = 512;
    const grey = await sharp({ create: { width: W, height: W, channels: 3, background: { r: 150, g: 150, b: 150 } } })
      .png()
      .toBuffer();
    const { data } = await pixels(await renderStyle(grey, 'sketch', { analysis: null }));
    const B = 16;
    const means: number[] = [];
    for (let by = 1; by < W / B - 1; by++) {
      for (let bx = 1; bx < W / B - 1; bx++) {
        let sum = 0;
        for (let y = 0; y < B; y++) for (let x = 0; x < B; x++) sum += data[((by * B + y) * W + bx * B + x) * 3];
        means.push(sum / (B * B));
      }
    }
    const mean = means.reduce((a, b) => a + b, 0) / means.length;
    const sd = Math.sqrt(means.reduce((a, b) => a + (b - mean) ** 2, 0) / means.length);
    expect(mean).toBeLessThan(240); // it is hatched at all
    expect(sd).toBeGreaterThan(1.5);
  });

  it("pop-art paints one object in one ink even where its shading drifts between two inks' hues", async () => {
    // A patchwork of a red-leaning and an orange-leaning orange (hues 0.16 and 0.36 of a sextant) on blue: the
    // folds of an orange suit. Snapping each pixel's hue painted it as a red/orange checker (camouflage).
    const W = 512;
    const cells: string[] = [];
    for (let y = 80; y < 300; y += 40) {
      for (let x = 120; x < 400; x += 40) {
        cells.push(
          `<rect x="${x}" y="${y}" width="40" height="40" fill="${((x + y) / 40) % 2 ? 'rgb(170,40,15)' : 'rgb(180,75,15)'}"/>`,
        );
      }
    }
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="384"><rect width="100%" height="100%" fill="rgb(40,70,160)"/>${cells.join('')}</svg>`;
    const png = await sharp(Buffer.from(svg)).png().toBuffer();
    const { data } = await pixels(await renderStyle(png, 'pop-art', { analysis: null }));
    const counts = new Map<string, number>();
    for (let y = 100; y < 280; y++) {
      for (let x = 140; x < 380; x++) {
        const j = (y * W + x) * 3;
        const key = `${data[j] >> 4},${data[j + 1] >> 4},${data[j + 2] >> 4}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
    expect(Math.max(...counts.values()) / (180 * 240)).toBeGreaterThan(0.9);
  });

  it('pixel-art is blocky (pixels repeat within blocks), photos are not', () => {
    for (const name of Object.keys(inputs)) {
      expect(neighbourEquality(inputs[name])).toBeLessThan(0.3);
      expect(neighbourEquality(outputs[name]['pixel-art'])).toBeGreaterThan(0.75);
    }
  });

  it('a night photo stays a night photo in every style painted without paper (no tone flip)', async () => {
    // The rocket at dusk: mean luma 0.22. Adaptive thresholds once turned its mid-blue sky into dotted paper.
    const night = await smallPhoto('rocket.jpg', 320);
    const mean = (l: Float32Array) => l.reduce((s, v) => s + v, 0) / l.length;
    const before = mean(lumaOf(await pixels(night)));
    const analysis = await analyzePhoto(night);
    for (const id of STYLE_IDS.filter((s) => s !== 'sketch' && s !== 'watercolor')) {
      const after = mean(lumaOf(await pixels(await renderStyle(night, id, { analysis }))));
      expect([id, Math.abs(after - before) <= 0.15]).toEqual([id, true]);
    }
  });

  it('oil-paint keeps small dark features (eyes, lettering) that its broad brush blocks would wipe out', async () => {
    const dots = Array.from({ length: 6 }, (_, k) => `<circle cx="${60 + k * 75}" cy="190" r="2.2" fill="#202020"/>`);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="384"><rect width="100%" height="100%" fill="#d8c0a8"/>${dots.join('')}</svg>`;
    const png = await sharp(Buffer.from(svg)).png().toBuffer();
    const out = await pixels(await renderStyle(png, 'oil-paint', { analysis: null }));
    const L = lumaOf(out);
    for (let k = 0; k < 6; k++) {
      let darkest = 1;
      for (let dy = -3; dy <= 3; dy++)
        for (let dx = -3; dx <= 3; dx++) darkest = Math.min(darkest, L[(190 + dy) * out.width + 60 + k * 75 + dx]);
      expect([k, darkest < 0.4]).toEqual([k, true]); // the ground is ~0.75
    }
  });

  it('3d keeps colour (not a flat or greyscale style) but smooths noise', () => {
    const out = outputs.cat['3d'];
    expect(coveringColours(out)).toBeGreaterThan(1000);
    expect(neighbourEquality(out)).toBeLessThan(0.6);
  });
});
