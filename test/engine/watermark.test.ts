import sharp from 'sharp';
import { watermarkSvg } from '../../engine/watermark';

/** Where the mark's ink lands in a rendered SVG of the given size: its bounding box, or null when nothing is drawn. */
async function inkBox(width: number, height: number) {
  const { data, info } = await sharp(watermarkSvg(width, height))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let box: { left: number; top: number; right: number; bottom: number } | null = null;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      if (data[(y * info.width + x) * 4 + 3] === 0) continue;
      box = box
        ? {
            left: Math.min(box.left, x),
            top: Math.min(box.top, y),
            right: Math.max(box.right, x),
            bottom: Math.max(box.bottom, y),
          }
        : { left: x, top: y, right: x, bottom: y };
    }
  }
  return box;
}

describe('preview watermark', () => {
  test.each([
    [256, 256],
    [256, 171], // landscape preview (long side 256)
    [171, 256], // portrait
    [256, 64], // a panorama
    [48, 48],
  ])('at %i×%i the whole mark lies inside the centred square a square tile shows', async (width, height) => {
    const box = await inkBox(width, height);
    expect(box).not.toBeNull();
    const side = Math.min(width, height);
    const square = {
      left: (width - side) / 2,
      top: (height - side) / 2,
      right: (width + side) / 2 - 1,
      bottom: (height + side) / 2 - 1,
    };
    expect(box!.left).toBeGreaterThanOrEqual(square.left + 1);
    expect(box!.top).toBeGreaterThanOrEqual(square.top + 1);
    expect(box!.right).toBeLessThanOrEqual(square.right - 1);
    expect(box!.bottom).toBeLessThanOrEqual(square.bottom - 1);
    // Big enough to read: at least a quarter of the square's width (minus the margins on tiny images).
    expect(box!.right - box!.left).toBeGreaterThanOrEqual(Math.min(side * 0.25, side - 8));
    // In the bottom-right corner.
    expect(box!.right).toBeGreaterThan(square.right - side * 0.1);
    expect(box!.bottom).toBeGreaterThan(square.bottom - side * 0.1);
  });
});
