import sharp from 'sharp';
import { analyzePhoto, applyStyle, closeAnalysisThread, decodeInput, hasPeople, STYLE_IDS } from '../../engine';
import { darken, greyscale, group, MISSED_CASES, scene } from './hard-cases';
import { photo } from './helpers';

afterAll(() => closeAnalysisThread());

/** The faces' centres, in shares of the analysis image. */
async function centres(png: Buffer): Promise<[number, number][]> {
  const a = await analyzePhoto(png);
  return a.faces.map((f) => [(f.box[0] + f.box[2] / 2) / a.width, (f.box[1] + f.box[3] / 2) / a.height]);
}

describe('the analysis sees everyone', () => {
  it('finds faces 3 % of the long side, each of two portraits', async () => {
    for (const name of ['astronaut.png', 'grace_hopper.jpg']) {
      const found = await centres(await scene([{ name, share: 0.03, at: [0.5, 0.5] }]));
      expect([name, found.length]).toEqual([name, 1]);
    }
  });

  it('finds all three faces (3, 5, 8 %) of a group, in colour, in grey and in the dark', async () => {
    const g = await group();
    for (const [what, png] of [
      ['colour', g],
      ['grey', await greyscale(g)],
      ['dark', await darken(g)],
    ] as const) {
      const found = await centres(png);
      expect([what, found.length]).toEqual([what, 3]);
      const xs = found.map(([x]) => Math.round(x * 10) / 10).sort();
      expect([what, xs]).toEqual([what, [0.2, 0.5, 0.8]]);
    }
  });

  it('finds a rolled face with its nose and mouth hidden where MoveNet sees the head (issue 33)', async () => {
    // missed before the second look in MoveNet's heads: the detector alone scored it under 0.5
    const found = await centres(await MISSED_CASES['nose and mouth hidden, rolled 35° 10 %']());
    expect(found).toHaveLength(1);
    // the face, not the bar: the portrait's face turned 35° sits right of its centre (0.5)
    expect(found[0][0]).toBeGreaterThan(0.45);
    expect(found[0][0]).toBeLessThan(0.65);
  });

  it('finds a small grey face beside a large one (issue 33)', async () => {
    // missed before: in its tile the 4 % face scored 0.38, under the detector's 0.5; a closer look scores it 0.85
    const found = await centres(await MISSED_CASES['grey indoor pair 14 % + 4 %']());
    expect(found).toHaveLength(2);
    expect(Math.max(...found.map(([x]) => x))).toBeGreaterThan(0.65); // the small one, at 0.72 of the width
  });

  it('looks for small faces beside a sure large one for a paid render, not for a preview', async () => {
    const pair = await MISSED_CASES['grey indoor pair 15 % + 4 %, the large face sure']();
    const paid = await analyzePhoto(pair, { thorough: true });
    expect(paid).toMatchObject({ thorough: true, faces: [expect.anything(), expect.anything()] });
    // a preview stops at the whole view's sure face: at 256 px the small one is a few pixels
    const preview = await analyzePhoto(pair);
    expect(preview).toMatchObject({ thorough: false, faces: [expect.anything()] });
  });

  it('finds faces half hidden by an instrument, also dark-skinned', async () => {
    for (const name of ['nose and mouth hidden 12 %', 'dark skin, nose, mouth and one eye hidden 12 %']) {
      expect([name, (await centres(await MISSED_CASES[name]())).length]).toEqual([name, 1]);
    }
  });

  it('keeps a person mask for someone whose face does not show', async () => {
    const hidden = await sharp(photo('astronaut.png'))
      .composite([
        {
          input: Buffer.from(
            '<svg width="512" height="512"><ellipse cx="215" cy="110" rx="90" ry="110" fill="#3a2a20"/></svg>',
          ),
        },
      ])
      .png()
      .toBuffer();
    const a = await analyzePhoto(hidden);
    expect(a.faces).toHaveLength(0);
    expect(hasPeople(a)).toBe(true);
    expect(a.coverage).toBeGreaterThan(0.2);
    // every style draws such a person (the subject's treatment without a face's), 3d's depth of field among them
    const img = await decodeInput(hidden, { maxSize: 256 });
    for (const id of STYLE_IDS) expect(applyStyle(img, id, a).width).toBe(256);
    expect(applyStyle(img, '3d', a).data.equals(applyStyle(img, '3d', null).data)).toBe(false);
  });

  it('finds nobody in photos without people, nor in the motorcycle behind the small faces', async () => {
    // chelsea.png (the cat) too: analysis.test.ts, which also checks that it then keeps no mask
    for (const name of ['coffee.png', 'motorcycle_left.png', 'rocket.jpg']) {
      const a = await analyzePhoto(photo(name));
      expect([name, a.faces.length, a.mask]).toEqual([name, 0, null]);
    }
    const bg = await scene([]);
    for (const png of [bg, await greyscale(bg), await darken(bg)])
      expect((await analyzePhoto(png)).faces).toHaveLength(0);
  });
});
