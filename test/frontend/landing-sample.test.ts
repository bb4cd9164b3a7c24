import * as fs from 'node:fs';
import * as path from 'node:path';
import { ENGINE_SAMPLE, LANDING_STYLE, landingSample } from '../../frontend/src/features/wizard/landing-sample';

/** The landing never shows the engine's drawing of a style the AI model draws as if the model had made it. */
describe('landing sample', () => {
  const figures = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../frontend/build/figures.json'), 'utf8'));

  it('without a model-made sample, shows the engine sample of an engine style and says the model makes 3D', () => {
    const s = landingSample({}, figures);
    expect(LANDING_STYLE).toBe('3d');
    expect(s.tag).toBe('After · Comic Book');
    expect(s.note).toBe(
      'Sample drawn by our cartoon engine in the Comic Book style. Your 3D Animation image is made by the AI model.',
    );
    expect(s.after.src).toBe(`/figures/${figures[`${ENGINE_SAMPLE.photo}/${ENGINE_SAMPLE.style}`].after.file}`);
    for (const p of [s.before, s.after]) {
      expect(p.alt.length).toBeGreaterThan(10);
      expect(fs.existsSync(path.resolve(__dirname, '../../frontend/public', p.src.slice(1)))).toBe(true);
    }
  });

  it("shows the model's sample as the model's once npm run samples has made one", () => {
    const model = {
      src: '/samples/3d-0123456789.webp',
      width: 512,
      height: 512,
      modelId: 'us.stability.x',
      made: '2026-11-24',
    };
    const s = landingSample({ '3d': model }, figures);
    expect(s.after).toMatchObject({ src: model.src, width: 512, height: 512 });
    expect(s.tag).toBe('After · 3D Animation');
    expect(s.note).toContain('made by the AI model');
  });

  it('ships only samples that exist', () => {
    const samples = JSON.parse(
      fs.readFileSync(path.resolve(__dirname, '../../frontend/src/features/wizard/samples.json'), 'utf8'),
    );
    for (const s of Object.values(samples) as { src: string }[])
      expect(fs.existsSync(path.resolve(__dirname, '../../frontend/public', s.src.slice(1)))).toBe(true);
  });
});
