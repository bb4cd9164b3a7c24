/**
 * The engine's input and output rules: decoding (EXIF orientation, alpha, size limits, bombs, bad bytes), the PNG
 * it writes, the thumbnails. Every render here passes `analysis: null`: these rules do not depend on the analysis
 * (a photo without people renders the same bytes without one, and the analysis' own effect on renders and previews
 * is analysis.test.ts's), and leaving it out keeps this file from starting the analysis threads and their models.
 */
import sharp from 'sharp';
import {
  decodeInput,
  ImageInputError,
  renderAllThumbnails,
  renderStyle,
  renderThumbnail,
  STYLE_IDS,
} from '../../engine';
import { photo, pixels, smallPhoto } from './helpers';

let astronaut: Buffer;
beforeAll(async () => {
  astronaut = await smallPhoto('astronaut.png', 320);
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
    const marked = await renderThumbnail(jpeg, 'comic', { watermark: true, analysis: null });
    for (const png of [await renderStyle(jpeg, 'anime', { analysis: null }), marked]) {
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
    const out = await sharp(await renderStyle(jpeg, 'sketch', { analysis: null })).metadata();
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
    const out = await sharp(await renderStyle(rgba, 'anime', { analysis: null })).metadata();
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
    const m1 = await sharp(await renderStyle(big, 'pixel-art', { analysis: null })).metadata();
    expect([m1.width, m1.height]).toEqual([2048, 1024]);
    const m2 = await sharp(await renderStyle(big, 'pixel-art', { maxSize: 600, analysis: null })).metadata();
    expect([m2.width, m2.height]).toEqual([600, 300]);
    const m3 = await sharp(await renderStyle(astronaut, 'pixel-art', { maxSize: 1000, analysis: null })).metadata();
    expect([m3.width, m3.height]).toEqual([320, 320]);
  });

  it('renders 256 px thumbnails; the watermark changes them', async () => {
    const src = photo('chelsea.png');
    const plain = await renderThumbnail(src, 'anime', { analysis: null });
    const marked = await renderThumbnail(src, 'anime', { watermark: true, analysis: null });
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
    const all = await renderAllThumbnails(src, { size: 256, analysis: null });
    expect(all.map((t) => t.styleId)).toEqual([...STYLE_IDS]);
    for (const t of all) {
      const m = await sharp(t.png).metadata();
      expect(Math.max(m.width ?? 0, m.height ?? 0)).toBe(256);
    }
    const single = await renderThumbnail(src, 'watercolor', { size: 256, analysis: null });
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
