/**
 * `npm run samples`: the landing page's "after" samples of the generative styles, made by the deployed model. Calls
 * Bedrock's InvokeModel (the app's own call, lambdas/lib/bedrock.ts) with the operator's credentials from the default
 * chain, on the landing's "before" photo, and writes
 *   frontend/public/samples/<style>-<hash>.webp       the model's image at the landing's size
 *   frontend/src/features/wizard/samples.json              which styles have a model-made sample, by which model, when
 * The landing (frontend/src/features/wizard/landing-sample.ts) shows a model-made sample when there is one, else the
 * engine's labelled sample. Committing the two is what publishes them.
 *
 *   npm run samples -- [--styles 3d,anime] [--region us-west-2] [--model-id <id or profile ARN>]
 *                      [--out-dir dir --manifest file]   (required when AWS_ENDPOINT_URL_BEDROCK_RUNTIME is set:
 *                                                         a stand-in's image never becomes the site's sample)
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { DEFAULT_BEDROCK_REGION, DEFAULT_GENERATIVE, generativePreset, parseModelId } from '../domain/generative';
import { isStyleId, type StyleId } from '../domain/styles';
import { FIGURE_PHOTO_DIR } from '../frontend/build/figures';
import { ENGINE_SAMPLE, type ModelSample, type ModelSamples } from '../frontend/src/features/wizard/landing-sample';

const ROOT = path.resolve(__dirname, '..');
/** The landing shows the pair at up to 288 CSS px a side: 512 px serves 1.75× screens in a few tens of KB. */
const SAMPLE_LONG_SIDE = 512;

function options() {
  const { values } = parseArgs({
    options: {
      styles: { type: 'string', default: DEFAULT_GENERATIVE.join(',') },
      region: { type: 'string', default: DEFAULT_BEDROCK_REGION },
      'model-id': { type: 'string' },
      'out-dir': { type: 'string' },
      manifest: { type: 'string' },
    },
  });
  const styles = values.styles.split(',').map((s) => s.trim());
  const bad = styles.filter((s) => !isStyleId(s));
  if (bad.length) throw new Error(`--styles: unknown style ${bad.join(', ')}`);
  const modelId = values['model-id'];
  if (modelId && !parseModelId(modelId)) throw new Error(`--model-id: "${modelId}" is not a Bedrock model id or ARN`);
  const standIn = process.env.AWS_ENDPOINT_URL_BEDROCK_RUNTIME;
  if (standIn && !(values['out-dir'] && values.manifest))
    throw new Error(
      `AWS_ENDPOINT_URL_BEDROCK_RUNTIME is set (${standIn}): that is not the deployed model; give --out-dir and --manifest to write elsewhere`,
    );
  return {
    styles: styles as StyleId[],
    region: values.region,
    modelId,
    outDir: path.resolve(values['out-dir'] ?? path.join(ROOT, 'frontend/public/samples')),
    manifest: path.resolve(values.manifest ?? path.join(ROOT, 'frontend/src/features/wizard/samples.json')),
  };
}

async function main(): Promise<void> {
  const opts = options();
  // The app's Bedrock call reads its region from the handlers' environment; its metrics are for Lambda, not here.
  process.env.BEDROCK_REGION = opts.region;
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  const { invokeControlStructure, seedFor } = await import('../lambdas/lib/bedrock');

  const photo = fs.readFileSync(path.join(FIGURE_PHOTO_DIR, ENGINE_SAMPLE.photo));
  const photoHash = createHash('sha256').update(photo).digest('hex');
  const manifest: ModelSamples = fs.existsSync(opts.manifest)
    ? (JSON.parse(fs.readFileSync(opts.manifest, 'utf8')) as ModelSamples)
    : {};
  fs.mkdirSync(opts.outDir, { recursive: true });
  for (const style of opts.styles) {
    const preset = generativePreset(style, opts.region);
    const settings = opts.modelId ? { ...preset, modelId: opts.modelId } : preset;
    // What a visitor's paid render is sent: the photo at the model's input size, as PNG.
    const input = await sharp(photo)
      .removeAlpha()
      .resize(settings.previewSize, settings.previewSize, { fit: 'inside' })
      .png()
      .toBuffer();
    const started = Date.now();
    const made = await invokeControlStructure(settings, input, seedFor(settings, photoHash, style));
    const webp = await sharp(made)
      .resize(SAMPLE_LONG_SIDE, SAMPLE_LONG_SIDE, { fit: 'inside' })
      .webp({ quality: 80, effort: 6 })
      .toBuffer({ resolveWithObject: true });
    const file = `${style}-${createHash('sha256').update(webp.data).digest('hex').slice(0, 10)}.webp`;
    for (const old of fs.readdirSync(opts.outDir))
      if (old.startsWith(`${style}-`) && old.endsWith('.webp')) fs.rmSync(path.join(opts.outDir, old));
    fs.writeFileSync(path.join(opts.outDir, file), webp.data);
    const sample: ModelSample = {
      src: `/samples/${file}`,
      width: webp.info.width,
      height: webp.info.height,
      modelId: settings.modelId,
      made: new Date().toISOString().slice(0, 10),
    };
    manifest[style] = sample;
    console.log(
      `${style}: ${settings.modelId} in ${Date.now() - started} ms -> ${file} (${(webp.data.length / 1024).toFixed(1)} KB)`,
    );
  }
  fs.writeFileSync(opts.manifest, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`wrote ${path.relative(ROOT, opts.manifest)}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? `${err.name}: ${err.message}` : err);
  process.exit(1);
});
