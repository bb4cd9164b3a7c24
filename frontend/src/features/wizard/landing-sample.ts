/**
 * The landing's before/after pair. Its "after" is the 3D Animation style, which the AI model draws in the product:
 * a sample the model made (`npm run samples`, scripts/samples.ts, records it in samples.json) when there is one;
 * else the engine's render of the same photo in a style the engine draws in the product, labelled as such: the
 * engine's own 3D drawing is not what a customer buys.
 */
import { getStyle, type StyleId } from '../../../../domain/styles';
import figures from '../../../build/figures.json';
import { FIGURE_WEB_DIR, type FigureImage, figureSrcset } from '../../lib/figure-images';
import samples from './samples.json';

/** One model-made sample, as scripts/samples.ts records it. */
export interface ModelSample {
  src: string;
  width: number;
  height: number;
  /** What InvokeModel was called with. */
  modelId: string;
  /** YYYY-MM-DD. */
  made: string;
}
export type ModelSamples = Partial<Record<StyleId, ModelSample>>;

/** The style the landing shows. */
export const LANDING_STYLE: StyleId = '3d';
/** The engine's sample shown instead (a figure of frontend/build/figures.ts, rendered by `npm run figures`). */
export const ENGINE_SAMPLE = { photo: 'astronaut.png', style: 'comic' } as const;

interface Picture {
  src: string;
  /** The engine's figures come in two widths (frontend/src/lib/figure-images.ts). */
  srcSet?: string;
  width: number;
  height: number;
  alt: string;
}

export interface LandingSample {
  before: Picture;
  after: Picture;
  /** The "after" chip. */
  tag: string;
  /** Says who drew the "after" image. */
  note: string;
}

type FigureRecords = Record<string, { before: FigureImage; after: FigureImage }>;

const picture = (image: FigureImage, alt: string): Picture => ({
  src: `${FIGURE_WEB_DIR}/${image.file}`,
  srcSet: figureSrcset(image),
  width: image.width,
  height: image.height,
  alt,
});

const nameOf = (id: StyleId) => getStyle(id)?.name ?? id;

export function landingSample(
  models: ModelSamples = samples as ModelSamples,
  records: FigureRecords = figures,
): LandingSample {
  const figure = records[`${ENGINE_SAMPLE.photo}/${ENGINE_SAMPLE.style}`];
  if (!figure) throw new Error('The landing sample is not rendered: run npm run figures');
  const before = picture(figure.before, 'Original photo: a smiling astronaut in her flight suit');
  const model = models[LANDING_STYLE];
  const style = nameOf(LANDING_STYLE);
  if (model)
    return {
      before,
      after: { ...model, alt: `The same photo in the ${style} style, made by the AI model` },
      tag: `After · ${style}`,
      note: `Sample made by the AI model that draws ${style} images (${model.made}).`,
    };
  const engine = nameOf(ENGINE_SAMPLE.style);
  return {
    before,
    after: picture(figure.after, `The same photo in the ${engine} style, drawn by our cartoon engine`),
    tag: `After · ${engine}`,
    note: `Sample drawn by our cartoon engine in the ${engine} style. Your ${style} image is made by the AI model.`,
  };
}
