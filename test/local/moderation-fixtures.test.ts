import * as fs from 'node:fs';
import * as path from 'node:path';
import { judgeLabels } from '../../domain/moderation-policy';
import { ENVIRONMENTS } from '../../lib/config';
import { classifyImage, mapScoresToModerationLabels } from '../../local/rekognition/nsfw-model';
import { PHOTOS } from '../fixtures/photos';

/**
 * Every photo in the fixtures is an ordinary photo (people in clothes, a cat, a cup, a rocket): the local moderation
 * must allow all of them, at the threshold the deployed stack uses. A new fixture photo joins this set by being there.
 */
const files = fs
  .readdirSync(PHOTOS)
  .filter((f) => /\.(png|jpe?g)$/i.test(f))
  .sort();

describe('local moderation allows every ordinary fixture photo', () => {
  test('the set includes photos of people', () => {
    for (const person of ['astronaut.png', 'camera.png', 'grace_hopper.jpg']) expect(files).toContain(person);
  });

  test.each(files)('%s is allowed', async (file) => {
    const { scores } = await classifyImage(fs.readFileSync(path.join(PHOTOS, file)));
    const labels = mapScoresToModerationLabels(scores, 50);
    const verdict = judgeLabels(labels, ENVIRONMENTS.prod.moderationMinConfidence);
    expect({ file, ...verdict }).toEqual({ file, allowed: true, reasons: [], category: null });
  });
});
