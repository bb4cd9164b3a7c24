import { MAX_ASPECT_RATIO, MIN_SHORT_SIDE, photoSizeProblem, readImageInfo } from '../../domain/image-format';
import { refusalReason } from '../../domain/moderation-policy';
import { photo } from '../fixtures/photos';

describe('the minimum photo size', () => {
  test('a photo under the minimum on its short side is refused with its size and the minimum', () => {
    expect(MIN_SHORT_SIDE).toBe(256);
    expect(photoSizeProblem({ width: 120, height: 90 })).toBe(
      'is too small (120×90 px): photos need at least 256 px on their short side',
    );
    expect(photoSizeProblem({ width: 4000, height: 255 })).toMatch(/^is too small \(4000×255 px\)/);
    expect(photoSizeProblem({ width: 256, height: 256 })).toBeNull();
    expect(photoSizeProblem({ width: 300, height: 750 })).toBeNull();
    // Longer than 2.5:1 either way: the generative models refuse it.
    expect(MAX_ASPECT_RATIO).toBe(2.5);
    expect(photoSizeProblem({ width: 300, height: 751 })).toMatch(/^is too long and narrow \(300×751 px\)/);
    expect(photoSizeProblem({ width: 156_250, height: 256 })).toMatch(/^is too long and narrow/);
    // A size not read (no header yet) is no verdict.
    expect(photoSizeProblem({})).toBeNull();
  });

  test('every fixture photo is big enough (the header says so)', () => {
    for (const name of ['astronaut.png', 'chelsea.png', 'coffee.png', 'camera.png', 'grace_hopper.jpg', 'rocket.jpg']) {
      const info = readImageInfo(photo(name));
      expect(info).not.toBeNull();
      expect(photoSizeProblem(info!)).toBeNull();
    }
  });

  test('the visitor reads why an invalid photo was refused: too small, else unreadable', () => {
    expect(refusalReason('invalid', null, { width: 120, height: 90 })).toMatch(/^is too small \(120×90 px\)/);
    expect(refusalReason('invalid', null, { width: 512, height: 512 })).toMatch(/could not be read/);
    expect(refusalReason('invalid', null)).toMatch(/could not be read/);
  });
});
