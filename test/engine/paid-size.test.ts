import sharp from 'sharp';
import { PAID_LONG_SIDE } from '../../domain/image-format';
import {
  analyzePhoto,
  closeAnalysisThread,
  closeStylePool,
  renderStyle,
  renderThumbnail,
  STYLE_IDS,
} from '../../engine';
import { smallPhoto } from './helpers';

afterAll(() => Promise.all([closeStylePool(), closeAnalysisThread()]));

describe('paid size', () => {
  it('enlarges a 548-px photo so every style is sold at exactly the size asked for', async () => {
    const small = await smallPhoto('grace_hopper.jpg', 548);
    expect((await sharp(small).metadata()).height).toBe(548);
    // analysed once, as the engine server does for an order's styles (its cache)
    const analysis = await analyzePhoto(small);
    expect(analysis.faces).toHaveLength(1);
    // Every style through the enlarging path at a size just above the photo's, one at the paid size itself (a
    // 2048-px render has 11.7 times the pixels of a 600-px one).
    for (const id of STYLE_IDS) {
      const m = await sharp(await renderStyle(small, id, { maxSize: 600, enlarge: true, analysis })).metadata();
      expect([id, Math.max(m.width ?? 0, m.height ?? 0)]).toEqual([id, 600]);
    }
    const paid = await sharp(
      await renderStyle(small, 'sketch', { maxSize: PAID_LONG_SIDE, enlarge: true, analysis }),
    ).metadata();
    expect(Math.max(paid.width ?? 0, paid.height ?? 0)).toBe(PAID_LONG_SIDE);
  });

  it('enlarges a tiny photo too, keeping its aspect', async () => {
    const tiny = await sharp({ create: { width: 40, height: 27, channels: 3, background: '#8a6' } })
      .png()
      .toBuffer();
    const m = await sharp(
      await renderStyle(tiny, 'pixel-art', { maxSize: 2048, enlarge: true, analysis: null }),
    ).metadata();
    expect([m.width, m.height]).toEqual([2048, 1382]);
  });

  it('leaves previews and unpaid renders at the photo size', async () => {
    const small = await smallPhoto('astronaut.png', 200);
    const thumb = await sharp(await renderThumbnail(small, 'anime', { size: 256 })).metadata();
    expect([thumb.width, thumb.height]).toEqual([200, 200]);
    const plain = await sharp(await renderStyle(small, 'anime', { maxSize: 2048 })).metadata();
    expect([plain.width, plain.height]).toEqual([200, 200]);
  });
});
