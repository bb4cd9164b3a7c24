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
  /** Bedrock model id or inference profile id called with InvokeModel. */
  readonly modelId: string;
  readonly prompt: string;
  readonly negativePrompt: string;
  /** Stable Image Control Structure `control_strength` (0..1): how closely the output follows the photo's structure. */
  readonly controlStrength: number;
  /** Long side of a paid output in px (the model's output is shrunk to it, never enlarged). */
  readonly outputSize: number;
  /** Long side of the photo sent to the model for a preview (the stored preview is 256 px like every other). */
  readonly previewSize: number;
  readonly seed: SeedPolicy;
}

export type GenerativeStyles = Partial<Record<StyleId, GenerativeStyleSettings>>;

/** Stable Image Control Structure on Bedrock (docs/bedrock.md says why this model). */
export const CONTROL_STRUCTURE_MODEL_ID = 'stability.stable-image-control-structure-v1:0';

const KEEP = 'same person, same pose, same framing, recognisable face';
const NEGATIVE = 'photo, photorealistic, deformed face, extra fingers, extra limbs, text, watermark, signature, blurry';

/**
 * Prompts per style: every catalogue style can be made generative by configuration (`-c generativeStyles=...`);
 * the defaults render `3d` and `anime` generatively. Control strength is high: the person must stay recognisable.
 */
export const GENERATIVE_PRESETS: Record<StyleId, GenerativeStyleSettings> = {
  '3d': preset(
    `3D animated feature film still, soft global illumination, smooth stylised skin, expressive eyes, warm saturated colours, shallow depth of field, ${KEEP}`,
    0.75,
  ),
  anime: preset(
    `anime illustration, clean cel shading, flat bright colours, fine ink outlines, detailed anime eyes, ${KEEP}`,
    0.7,
  ),
  comic: preset(`comic book panel, bold black inking, flat punchy colours, halftone dot shadows, ${KEEP}`, 0.75),
  sketch: preset(`graphite pencil sketch on textured paper, soft hatching, hand-drawn lines, ${KEEP}`, 0.8),
  watercolor: preset(
    `loose watercolour painting, transparent washes, pigment-darkened edges, cold-press paper, ${KEEP}`,
    0.7,
  ),
  'pop-art': preset(`pop art screen print, bold pop colours, Ben-Day dots, heavy outlines, ${KEEP}`, 0.75),
  'pixel-art': preset(`16-bit pixel art, chunky pixels, limited retro game palette, ${KEEP}`, 0.7),
  'oil-paint': preset(
    `oil painting, thick directional impasto brush strokes, rich colour, canvas texture, ${KEEP}`,
    0.7,
  ),
};

function preset(prompt: string, controlStrength: number): GenerativeStyleSettings {
  return {
    modelId: CONTROL_STRUCTURE_MODEL_ID,
    prompt,
    negativePrompt: NEGATIVE,
    controlStrength,
    outputSize: 1536,
    previewSize: 512,
    seed: 'per-photo',
  };
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
    if (typeof s?.modelId !== 'string' || !/^[a-z0-9.:-]+$/i.test(s.modelId))
      throw new Error(`${where}: modelId is missing or malformed`);
    if (typeof s.prompt !== 'string' || s.prompt.length === 0 || s.prompt.length > 10_000)
      throw new Error(`${where}: prompt must be 1..10000 characters`);
    if (typeof s.negativePrompt !== 'string' || s.negativePrompt.length > 10_000)
      throw new Error(`${where}: negativePrompt must be at most 10000 characters`);
    if (typeof s.controlStrength !== 'number' || !(s.controlStrength >= 0 && s.controlStrength <= 1))
      throw new Error(`${where}: controlStrength must be 0..1`);
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
      outputSize: s.outputSize,
      previewSize: s.previewSize,
      seed: s.seed,
    };
  }
  return out as GenerativeStyles;
}
