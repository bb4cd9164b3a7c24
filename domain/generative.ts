/**
 * Generative styles: which styles a Bedrock image model redraws instead of the engine, with what settings.
 * Pure data shared by lib/ (configuration, IAM, the handlers' environment), lambdas/ (lambdas/lib/renderer.ts reads
 * the environment back) and local/bedrock/ (the stand-in renders the style a configured prompt belongs to).
 */
import type { StyleId } from './styles';

/** How the seed of a model call is chosen. */
export type SeedPolicy =
  /** Derived from (photo hash, style): the paid render starts from the same noise as its preview. */
  | 'per-photo'
  /** A new random seed per call (the model picks it: seed 0). */
  | 'random';

export interface GenerativeStyleSettings {
  /**
   * What InvokeModel is called with: a cross-Region inference profile id (`us.stability...`, the default), an
   * application inference profile ARN, or a foundation model id (only for models that allow on-demand calls).
   */
  readonly modelId: string;
  readonly prompt: string;
  readonly negativePrompt: string;
  /** Stable Image Control Structure `control_strength` (0..1): how closely the output follows the photo's structure. */
  readonly controlStrength: number;
  /**
   * Stable Image Control Structure `style_preset`: the look asked for by name, beside the prompt; absent where the
   * model has no preset for the style (watercolour, pop art, oil paint), and then the prompt alone names it.
   */
  readonly stylePreset?: StylePreset;
  /**
   * Long side in px of the photo sent to the model for a paid image, about the size the model draws at; its answer
   * is then enlarged to PAID_LONG_SIDE (domain/image-format.ts) like every paid image.
   */
  readonly outputSize: number;
  /** Long side of the photo sent to the model for a preview (the stored preview is 256 px like every other). */
  readonly previewSize: number;
  readonly seed: SeedPolicy;
}

export type GenerativeStyles = Partial<Record<StyleId, GenerativeStyleSettings>>;

/** Default generative styles: at least `3d` and `anime` in every deployed environment (and in `npm start`). */
export const DEFAULT_GENERATIVE: readonly StyleId[] = ['3d', 'anime'];

/** Stable Image Control Structure on Bedrock (docs/bedrock.md says why this model): the foundation model. */
export const CONTROL_STRUCTURE_MODEL_ID = 'stability.stable-image-control-structure-v1:0';

/**
 * The values Control Structure's optional `style_preset` takes ("guides the image model towards a particular
 * style"; any other value is refused with ValidationException). Sources: Bedrock user guide "Stability AI Image
 * Services" (docs.aws.amazon.com/bedrock/latest/userguide/stable-image-services.html, Control Structure's optional
 * parameters) and Stability's API reference (platform.stability.ai/docs/api-reference, Control › Structure,
 * `style_preset`, the `StylePreset` enum of its OpenAPI document; Stability notes the list may change).
 */
export const STYLE_PRESETS = [
  '3d-model',
  'analog-film',
  'anime',
  'cinematic',
  'comic-book',
  'digital-art',
  'enhance',
  'fantasy-art',
  'isometric',
  'line-art',
  'low-poly',
  'modeling-compound',
  'neon-punk',
  'origami',
  'photographic',
  'pixel-art',
  'tile-texture',
] as const;
export type StylePreset = (typeof STYLE_PRESETS)[number];
export const isStylePreset = (v: unknown): v is StylePreset => STYLE_PRESETS.includes(v as StylePreset);

/**
 * Stability AI's upscale services on Bedrock that may enlarge a paid generative image (`bedrockUpscaleModelId`,
 * docs/bedrock.md "Upscaling"): their request body and the input sizes each accepts (Stability AI Image Services,
 * Bedrock user guide). Fast Upscale enlarges x4 and takes at most 1 MP in; Conservative keeps details (needs a
 * prompt) and takes up to 9.4 MP. Both answer {seeds, finish_reasons, images} like Control Structure.
 */
export const UPSCALE_MODELS = {
  'stability.stable-fast-upscale-v1:0': { minSide: 32, maxSide: 1536, maxPixels: 1_048_576, prompt: false },
  'stability.stable-conservative-upscale-v1:0': { minSide: 64, maxSide: 9_437_184, maxPixels: 9_437_184, prompt: true },
} as const satisfies Record<string, { minSide: number; maxSide: number; maxPixels: number; prompt: boolean }>;
export type UpscaleModel = keyof typeof UPSCALE_MODELS;
/** The documented suggestion: cheap, x4, no prompt. */
export const FAST_UPSCALE_MODEL_ID: UpscaleModel = 'stability.stable-fast-upscale-v1:0';
/** Largest aspect ratio the Stability image services accept (1:2.5 to 2.5:1). */
export const STABILITY_MAX_ASPECT = 2.5;

/** The Bedrock region the presets are written for (lib/config.ts's default `bedrockRegion`). */
export const DEFAULT_BEDROCK_REGION = 'us-west-2';

/**
 * Foundation models Bedrock offers only through inference profiles (inference type INFERENCE_PROFILE): an on-demand
 * call of their plain id is refused with ValidationException. The local stand-in plays that refusal.
 */
export const PROFILE_ONLY_MODELS: readonly string[] = [CONTROL_STRUCTURE_MODEL_ID];

/** Geography prefixes of AWS's system-defined cross-Region inference profiles. */
const PROFILE_GEOGRAPHIES = ['us-gov', 'us', 'eu', 'apac', 'jp', 'au', 'ca', 'global'] as const;
const PROFILE_ID = new RegExp(`^(${PROFILE_GEOGRAPHIES.join('|')})\\.([a-z0-9-]+\\.[a-z0-9.:-]+)$`, 'i');
const APPLICATION_PROFILE_ARN =
  /^arn:aws(?:-cn|-us-gov)?:bedrock:[a-z0-9-]+:\d{12}:application-inference-profile\/[a-z0-9]+$/i;
const FOUNDATION_MODEL_ID = /^[a-z0-9-]+\.[a-z0-9.:-]+$/i;

/** What a configured model id names, for IAM (lib/bedrock-access.ts) and the local stand-in. */
export type ModelRef =
  | { kind: 'foundation-model'; modelId: string }
  | { kind: 'inference-profile'; geography: string; foundationModel: string }
  | { kind: 'application-inference-profile'; arn: string };

/** Parses a model id as Bedrock reads it; null for anything it would not accept. */
export function parseModelId(id: string): ModelRef | null {
  if (APPLICATION_PROFILE_ARN.test(id)) return { kind: 'application-inference-profile', arn: id };
  const profile = PROFILE_ID.exec(id);
  if (profile) return { kind: 'inference-profile', geography: profile[1].toLowerCase(), foundationModel: profile[2] };
  if (FOUNDATION_MODEL_ID.test(id)) return { kind: 'foundation-model', modelId: id };
  return null;
}

/** The cross-Region inference profile geography that serves a region: us-* → us, eu-* → eu, ap-* → apac. */
export function profileGeography(region: string): string {
  if (region.startsWith('us-gov-')) return 'us-gov';
  for (const [prefix, geography] of [
    ['us-', 'us'],
    ['eu-', 'eu'],
    ['ap-', 'apac'],
  ] as const)
    if (region.startsWith(prefix)) return geography;
  throw new Error(
    `No cross-Region inference profile geography is known for Bedrock region "${region}": name a profile with -c generativeSettings='{"3d":{"modelId":"..."}}'`,
  );
}

/** The system-defined inference profile of a foundation model in a region's geography, e.g. `us.stability...`. */
export const inferenceProfileId = (foundationModel: string, region: string) =>
  `${profileGeography(region)}.${foundationModel}`;

const KEEP = 'same person, same pose, same framing, recognisable face';
const NEGATIVE = 'photo, photorealistic, deformed face, extra fingers, extra limbs, text, watermark, signature, blurry';

/**
 * Prompts per style: every catalogue style can be made generative by configuration (`-c generativeStyles=...`);
 * the defaults render `3d` and `anime` generatively. Control strength is high: the person must stay recognisable.
 * Their model is the inference profile of DEFAULT_BEDROCK_REGION; generativePreset() gives it for another region.
 *
 * Checked against the model's documentation (Bedrock "Stability AI Image Services", Control Structure; Stability's
 * API reference): `prompt` 1..10,000 characters, "a strong, descriptive prompt that clearly defines elements,
 * colors, and subjects" (so each names its medium, colours and line, not only the style's name); `negative_prompt`
 * what must not appear (here: a photo-like result, broken anatomy, text); `style_preset` where one of the model's
 * presets is the look (3d → 3d-model, anime, comic → comic-book, sketch → line-art, pixel art → pixel-art); the
 * model has none for watercolour, pop art or oil paint, whose prompts carry the look alone.
 */
export const GENERATIVE_PRESETS: Record<StyleId, GenerativeStyleSettings> = {
  '3d': preset(
    `3D animated feature film still, soft global illumination, smooth stylised skin, expressive eyes, warm saturated colours, shallow depth of field, ${KEEP}`,
    0.75,
    '3d-model',
  ),
  anime: preset(
    `anime illustration, clean cel shading, flat bright colours, fine ink outlines, detailed anime eyes, ${KEEP}`,
    0.7,
    'anime',
  ),
  comic: preset(
    `comic book panel, bold black inking, flat punchy colours, halftone dot shadows, ${KEEP}`,
    0.75,
    'comic-book',
  ),
  sketch: preset(`graphite pencil sketch on textured paper, soft hatching, hand-drawn lines, ${KEEP}`, 0.8, 'line-art'),
  watercolor: preset(
    `loose watercolour painting, transparent washes, pigment-darkened edges, cold-press paper, ${KEEP}`,
    0.7,
  ),
  'pop-art': preset(`pop art screen print, bold pop colours, Ben-Day dots, heavy outlines, ${KEEP}`, 0.75),
  'pixel-art': preset(`16-bit pixel art, chunky pixels, limited retro game palette, ${KEEP}`, 0.7, 'pixel-art'),
  'oil-paint': preset(
    `oil painting, thick directional impasto brush strokes, rich colour, canvas texture, ${KEEP}`,
    0.7,
  ),
};

function preset(prompt: string, controlStrength: number, stylePreset?: StylePreset): GenerativeStyleSettings {
  return {
    modelId: inferenceProfileId(CONTROL_STRUCTURE_MODEL_ID, DEFAULT_BEDROCK_REGION),
    prompt,
    negativePrompt: NEGATIVE,
    controlStrength,
    ...(stylePreset ? { stylePreset } : {}),
    outputSize: 1536,
    previewSize: 512,
    seed: 'per-photo',
  };
}

/** A preset with the inference profile that serves `region`. */
export function generativePreset(style: StyleId, region: string): GenerativeStyleSettings {
  return { ...GENERATIVE_PRESETS[style], modelId: inferenceProfileId(CONTROL_STRUCTURE_MODEL_ID, region) };
}

/** Checks settings (from configuration or the environment); throws with the offending field. */
export function validateGenerativeStyles(
  styles: Record<string, unknown>,
  isStyle: (id: string) => boolean,
): GenerativeStyles {
  const out: Record<string, GenerativeStyleSettings> = {};
  for (const [id, raw] of Object.entries(styles)) {
    if (!isStyle(id)) throw new Error(`Generative style "${id}" is not in the catalogue`);
    const s = raw as GenerativeStyleSettings;
    const where = `generative style ${id}`;
    if (typeof s?.modelId !== 'string' || !parseModelId(s.modelId))
      throw new Error(
        `${where}: modelId must be an inference profile id (us.<model>), an application inference profile ARN or a foundation model id`,
      );
    if (typeof s.prompt !== 'string' || s.prompt.length === 0 || s.prompt.length > 10_000)
      throw new Error(`${where}: prompt must be 1..10000 characters`);
    if (typeof s.negativePrompt !== 'string' || s.negativePrompt.length > 10_000)
      throw new Error(`${where}: negativePrompt must be at most 10000 characters`);
    if (typeof s.controlStrength !== 'number' || !(s.controlStrength >= 0 && s.controlStrength <= 1))
      throw new Error(`${where}: controlStrength must be 0..1`);
    if (s.stylePreset !== undefined && !isStylePreset(s.stylePreset))
      throw new Error(`${where}: stylePreset must be one of ${STYLE_PRESETS.join(', ')} (or absent)`);
    for (const k of ['outputSize', 'previewSize'] as const) {
      if (!Number.isInteger(s[k]) || s[k] < 64 || s[k] > 4096)
        throw new Error(`${where}: ${k} must be an integer 64..4096`);
    }
    if (s.seed !== 'per-photo' && s.seed !== 'random')
      throw new Error(`${where}: seed must be "per-photo" or "random"`);
    out[id] = {
      modelId: s.modelId,
      prompt: s.prompt,
      negativePrompt: s.negativePrompt,
      controlStrength: s.controlStrength,
      ...(s.stylePreset ? { stylePreset: s.stylePreset } : {}),
      outputSize: s.outputSize,
      previewSize: s.previewSize,
      seed: s.seed,
    };
  }
  return out as GenerativeStyles;
}

/** The foundation model an id calls: a system profile's model, else the id itself. */
export function foundationModelOf(id: string): string {
  const ref = parseModelId(id);
  return ref?.kind === 'inference-profile' ? ref.foundationModel : id;
}

/** The upscale service a configured id (foundation model, or its cross-Region profile) calls; null for any other. */
export function upscaleModelOf(id: string): UpscaleModel | null {
  const model = foundationModelOf(id);
  return Object.hasOwn(UPSCALE_MODELS, model) ? (model as UpscaleModel) : null;
}
