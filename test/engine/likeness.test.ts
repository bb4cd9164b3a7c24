import sharp from 'sharp';
import { closeAnalysisThread } from '../../engine';
import { LIKENESS_THRESHOLD, likeness } from '../../engine/likeness';
import { photo } from './helpers';

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
});
