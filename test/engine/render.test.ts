import sharp from 'sharp';
import {
  analyzePhoto,
  decodeInput,
  ImageInputError,
  renderAllThumbnails,
  renderStyle,
  renderThumbnail,
  STYLE_IDS,
} from '../../engine';
import {
  coveringColours,
  inkLinesOnEdges,
  lumaOf,
  meanAbsDiff,
  neighbourEquality,
  type Pixels,
  photo,
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

beforeAll(async () => {
  astronaut = await smallPhoto('astronaut.png', 320);
  cat = await smallPhoto('chelsea.png', 320);
  coffee = await smallPhoto('coffee.png', 320);
  for (const [name, bytes] of Object.entries({ astronaut, cat, coffee })) {
    inputs[name] = await pixels(bytes);
    outputs[name] = {};
    const analysis = await analyzePhoto(bytes); // once per photo, as the server caches it
    for (const id of STYLE_IDS) outputs[name][id] = await pixels(await renderStyle(bytes, id, { analysis }));
  }
});

describe.each(STYLE_IDS.map((id) => [id]))('style %s', (id) => {
  it('keeps the size and visibly changes every photo', () => {
    for (const name of Object.keys(inputs)) {
      const out = outputs[name][id];
      expect([out.width, out.height]).toEqual([inputs[name].width, inputs[name].height]);
      expect(meanAbsDiff(inputs[name], out)).toBeGreaterThan(0.035);
    }
  });

  it('is deterministic (identical bytes for the same input)', async () => {
    const a = await renderStyle(cat, id);
    const b = await renderStyle(cat, id);
    expect(a.equals(b)).toBe(true);
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
    const { data } = await pixels(await renderStyle(grey, 'sketch'));
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
    const { data } = await pixels(await renderStyle(await sharp(Buffer.from(svg)).png().toBuffer(), 'pop-art'));
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
    for (const id of STYLE_IDS.filter((s) => s !== 'sketch' && s !== 'watercolor')) {
      const after = mean(lumaOf(await pixels(await renderStyle(night, id))));
      expect([id, Math.abs(after - before) <= 0.15]).toEqual([id, true]);
    }
  });

  it('oil-paint keeps small dark features (eyes, lettering) that its broad brush blocks would wipe out', async () => {
    const dots = Array.from({ length: 6 }, (_, k) => `<circle cx="${60 + k * 75}" cy="190" r="2.2" fill="#202020"/>`);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="384"><rect width="100%" height="100%" fill="#d8c0a8"/>${dots.join('')}</svg>`;
    const out = await pixels(await renderStyle(await sharp(Buffer.from(svg)).png().toBuffer(), 'oil-paint'));
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

describe('input handling and output format', () => {
  it('writes PNG without EXIF or ICC metadata', async () => {
    const jpeg = await sharp(photo('astronaut.png'))
      .resize(200)
      .withMetadata({ orientation: 1 })
      .withExif({ IFD0: { Copyright: 'secret', Artist: 'someone' } })
      .jpeg()
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    for (const png of [await renderStyle(jpeg, 'anime'), await renderThumbnail(jpeg, 'comic', { watermark: true })]) {
      const meta = await sharp(png).metadata();
      expect(meta.format).toBe('png');
      expect(meta.exif).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
    }
  });

  it('applies EXIF orientation 6 (rotated 90 degrees)', async () => {
    // 120x80 landscape pixels with orientation 6 -> displayed as 80x120 portrait
    const jpeg = await sharp(await smallPhoto('coffee.png', 120))
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const meta = await sharp(jpeg).metadata();
    expect([meta.width, meta.height, meta.orientation]).toEqual([120, 80, 6]);
    const dec = await decodeInput(jpeg);
    expect([dec.width, dec.height]).toEqual([80, 120]);
    const out = await sharp(await renderStyle(jpeg, 'sketch')).metadata();
    expect([out.width, out.height]).toEqual([80, 120]);
  });

  it('flattens PNG alpha onto white', async () => {
    const rgba = await sharp({
      create: { width: 64, height: 48, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const dec = await decodeInput(rgba);
    expect(dec.channels).toBe(3);
    expect(dec.data.length).toBe(64 * 48 * 3);
    expect(Math.min(...dec.data)).toBe(255);
    const out = await sharp(await renderStyle(rgba, 'anime')).metadata();
    expect(out.hasAlpha).toBe(false);
  });

  it('rejects decompression bombs with ImageInputError', async () => {
    // A real (highly compressible) 8000x6000 = 48 MP PNG: over the 40 MP default.
    const bomb = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#808080' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(1_000_000);
    await expect(renderStyle(bomb, 'anime')).rejects.toThrow(ImageInputError);
    await expect(decodeInput(bomb)).rejects.toThrow(/too large/i);
    // configurable limit
    await expect(decodeInput(astronaut, { maxPixels: 10_000 })).rejects.toThrow(ImageInputError);
  });

  it('rejects a PNG header claiming 30000x30000 pixels', async () => {
    const header = Buffer.from(
      await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } })
        .png()
        .toBuffer(),
    );
    // patch IHDR width/height (bytes 16..23) and fix its CRC
    header.writeUInt32BE(30000, 16);
    header.writeUInt32BE(30000, 20);
    header.writeUInt32BE(crc32(header.subarray(12, 29)), 29);
    await expect(decodeInput(header)).rejects.toThrow(ImageInputError);
    await expect(decodeInput(header)).rejects.toThrow(/too large/i);
  });

  it('rejects unsupported types, corrupt data and unknown styles with ImageInputError', async () => {
    const webp = await sharp(astronaut).webp().toBuffer();
    await expect(renderStyle(webp, 'anime')).rejects.toThrow(/only JPEG and PNG/);
    await expect(renderStyle(Buffer.from('hello world'), 'anime')).rejects.toThrow(ImageInputError);
    const truncated = (await sharp(astronaut).jpeg().toBuffer()).subarray(0, 2000);
    await expect(renderStyle(truncated, 'anime')).rejects.toThrow(ImageInputError);
    await expect(renderStyle(astronaut, 'nope')).rejects.toThrow(/Unknown style/);
  });

  it('limits the long side to 2048 by default, honours maxSize and never upscales', async () => {
    const big = await sharp(photo('astronaut.png')).resize(2600, 1300, { fit: 'fill' }).jpeg().toBuffer();
    const m1 = await sharp(await renderStyle(big, 'pixel-art')).metadata();
    expect([m1.width, m1.height]).toEqual([2048, 1024]);
    const m2 = await sharp(await renderStyle(big, 'pixel-art', { maxSize: 600 })).metadata();
    expect([m2.width, m2.height]).toEqual([600, 300]);
    const m3 = await sharp(await renderStyle(astronaut, 'pixel-art', { maxSize: 1000 })).metadata();
    expect([m3.width, m3.height]).toEqual([320, 320]);
  });

  it('renders 256 px thumbnails; the watermark changes them', async () => {
    const src = photo('chelsea.png');
    const plain = await renderThumbnail(src, 'anime');
    const marked = await renderThumbnail(src, 'anime', { watermark: true });
    const mp = await sharp(plain).metadata();
    expect([mp.width, mp.height]).toEqual([256, 170]);
    expect(plain.equals(marked)).toBe(false);
    // the change is confined to the bottom-right corner
    const a = await pixels(plain);
    const b = await pixels(marked);
    let changedOutside = 0;
    let changedInside = 0;
    for (let y = 0; y < a.height; y++) {
      for (let x = 0; x < a.width; x++) {
        const o = (y * a.width + x) * 3;
        const diff = Math.abs(a.data[o] - b.data[o]) + Math.abs(a.data[o + 1] - b.data[o + 1]);
        if (diff === 0) continue;
        if (x > a.width * 0.55 && y > a.height * 0.7) changedInside++;
        else changedOutside++;
      }
    }
    expect(changedInside).toBeGreaterThan(100);
    expect(changedOutside).toBe(0);
  });

  it('renderAllThumbnails renders every style once, matching renderThumbnail', async () => {
    const src = photo('coffee.png');
    const all = await renderAllThumbnails(src, { size: 256 });
    expect(all.map((t) => t.styleId)).toEqual([...STYLE_IDS]);
    for (const t of all) {
      const m = await sharp(t.png).metadata();
      expect(Math.max(m.width ?? 0, m.height ?? 0)).toBe(256);
    }
    const single = await renderThumbnail(src, 'watercolor', { size: 256 });
    expect(all.find((t) => t.styleId === 'watercolor')?.png.equals(single)).toBe(true);
  });
});

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}
