import sharp from 'sharp';
import { analyzePhoto, closeAnalysisThread } from '../../engine';
import { decodeInput } from '../../engine/image-io';
import { LIKENESS_THRESHOLD, likeness } from '../../engine/likeness';
import { photo } from './helpers';

// the real decoder, counted (the last test: how often a photo is decoded)
jest.mock('../../engine/image-io', () => {
  const actual = jest.requireActual('../../engine/image-io');
  return { ...actual, decodeInput: jest.fn(actual.decodeInput) };
});

afterAll(() => closeAnalysisThread());

/** Each photo's likeness to itself, measured once: the first test asserts it, the second reads its face box. */
const selfLikeness = new Map<string, ReturnType<typeof likeness>>();
function itself(name: string): ReturnType<typeof likeness> {
  let l = selfLikeness.get(name);
  if (!l) {
    l = likeness(photo(name), photo(name));
    selfLikeness.set(name, l);
  }
  return l;
}

describe('likeness', () => {
  it('a photo is like itself, also as a resized copy', async () => {
    const a = await itself('astronaut.png');
    expect(a.threshold).toBe(LIKENESS_THRESHOLD);
    expect(a.faces).toHaveLength(1);
    expect(a.faces[0].similarity).toBe(1);
    const half = await sharp(photo('grace_hopper.jpg')).resize(256).png().toBuffer();
    const b = await likeness(photo('grace_hopper.jpg'), half);
    expect(b.faces[0].similarity).toBeGreaterThanOrEqual(LIKENESS_THRESHOLD);
    expect((await itself('grace_hopper.jpg')).faces[0].similarity).toBe(1);
  });

  it('a different face in the same place is not the same person', async () => {
    // Grace Hopper's face drawn where the astronaut's is: the box the photo's analysis gives, another person inside
    const a = await itself('astronaut.png');
    const [x, y, w, h] = a.faces[0].box.map(Math.round);
    const other = await itself('grace_hopper.jpg');
    const [gx, gy, gw, gh] = other.faces[0].box.map(Math.round);
    const face = await sharp(photo('grace_hopper.jpg'))
      .extract({ left: gx, top: gy, width: gw, height: gh })
      .resize(w, h, { fit: 'fill' })
      .toBuffer();
    const swapped = await sharp(photo('astronaut.png'))
      .composite([{ input: face, left: x, top: y }])
      .png()
      .toBuffer();
    const s = await likeness(photo('astronaut.png'), swapped);
    expect(s.faces[0].similarity).toBeLessThan(LIKENESS_THRESHOLD);
  });

  it("measures an order's renders against one decode of their photo", async () => {
    // bytes no other test decodes: a 12 MP photo's full-size decode cost each gate 240 ms of CPU
    const bytes = await sharp(photo('grace_hopper.jpg')).resize(300).jpeg().toBuffer();
    const analysis = await analyzePhoto(bytes);
    const renders = await Promise.all([1, 2].map((sigma) => sharp(bytes).blur(sigma).png().toBuffer()));
    const calls = jest.mocked(decodeInput).mock.calls;
    const before = calls.length;
    for (const render of renders) await likeness(bytes, render, analysis);
    expect(calls.slice(before).filter(([input]) => input === bytes)).toHaveLength(1);
  });
});
