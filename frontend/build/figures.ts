/**
 * Before/after figures of the articles and guides: one of the repository's own photos (test/fixtures/photos, licences
 * in its README) beside the engine's render of it in one style. A page names its figure in front matter
 * (`figure: {photo: chelsea.png, style: watercolor}`), else it follows the page's topic: the style of its social
 * image (`image: /thumbnails/anime.png`), on a portrait.
 * The renders are made once by `npm run figures` (frontend/scripts/figures.ts) and committed under
 * frontend/public/figures with figures.json beside this file; test/frontend/figures.test.ts fails when one is
 * missing or no longer what the engine draws, so the build only reads them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_GENERATIVE } from '../../domain/generative';
import { getStyle, isStyleId, type StyleId } from '../../domain/styles';
import { FIGURE_WEB_DIR, type FigureImage, figureSrcset } from '../src/lib/figure-images';

/** The photos a figure may show: what is in them (for alt text) and whose they are (for the caption). */
export const FIGURE_PHOTOS = {
  'astronaut.png': { subject: 'a smiling astronaut in her flight suit', credit: 'NASA, public domain' },
  'grace_hopper.jpg': { subject: 'a portrait of Grace Hopper in uniform', credit: 'US Navy, public domain' },
  'camera.png': { subject: 'a black-and-white photo of a man with a camera', credit: 'Lav Varshney, CC0' },
  'chelsea.png': { subject: 'a tabby cat', credit: 'scikit-image, CC0' },
  'coffee.png': { subject: 'a cup of coffee on a saucer', credit: 'scikit-image, CC0' },
} as const;
export type FigurePhoto = keyof typeof FIGURE_PHOTOS;

export const FIGURE_PHOTO_DIR = path.resolve(__dirname, '../../test/fixtures/photos');
/** Long side of a figure's images in px: a half column of the article (384 CSS px) at 1.25×, a few tens of KB. */
export const FIGURE_LONG_SIDE = 480;
/**
 * Long side of each image's smaller copy: on a phone a figure's image is half the screen less 22 px (FIGURE_SIZES),
 * 184 CSS px on a 412-px phone (Lighthouse's), so 336 px covers it at 1.75×. Browsers take the smallest copy that
 * covers the slot at the screen's density: at 320 px that phone took the 480-px file.
 */
export const FIGURE_SMALL_LONG_SIDE = 336;
/** How wide an article figure's image shows: half the column (max-w-3xl less its padding), half the screen on phones. */
export const FIGURE_SIZES = '(min-width: 48rem) 362px, calc(50vw - 22px)';
export const FIGURE_PUBLIC_DIR = path.resolve(__dirname, '../public/figures');
export const FIGURE_MANIFEST = path.resolve(__dirname, 'figures.json');

export interface FigureSpec {
  photo: FigurePhoto;
  style: StyleId;
}



/** One rendered figure: its images and the SHA-256 of the engine's raw render (what the up-to-date check compares). */
export interface FigureRecord {
  before: FigureImage;
  after: FigureImage;
  renderSha256: string;
}

export type FigureManifest = Record<string, FigureRecord>;

export const figureKey = (s: FigureSpec) => `${s.photo}/${s.style}`;

const DEFAULT_PHOTO: FigurePhoto = 'astronaut.png';
/** The landing's 3D sample was named pixar.png before the style was called 3d. */
const IMAGE_STYLE = /^\/thumbnails\/([a-z0-9-]+)\.png$/;

function isPhoto(name: unknown): name is FigurePhoto {
  return typeof name === 'string' && Object.hasOwn(FIGURE_PHOTOS, name);
}

/** The page's figure from its front matter; throws (failing the build) on a figure it cannot show. */
export function figureSpec(data: Record<string, unknown>, file: string): FigureSpec {
  const named = data.figure as { photo?: unknown; style?: unknown } | undefined;
  if (named !== undefined) {
    if (!isPhoto(named.photo) || !isStyleId(named.style))
      throw new Error(
        `${file}: figure must be {photo, style} with photo one of ${Object.keys(FIGURE_PHOTOS).join(', ')} and a catalogue style`,
      );
    return { photo: named.photo, style: named.style };
  }
  const m = typeof data.image === 'string' ? IMAGE_STYLE.exec(data.image) : null;
  const fromImage = m?.[1] === 'pixar' ? '3d' : m?.[1];
  if (!isStyleId(fromImage))
    throw new Error(`${file}: name its figure in front matter (figure: {photo, style}); its image does not name a style`);
  return { photo: DEFAULT_PHOTO, style: fromImage };
}

export function readManifest(): FigureManifest {
  return fs.existsSync(FIGURE_MANIFEST) ? (JSON.parse(fs.readFileSync(FIGURE_MANIFEST, 'utf8')) as FigureManifest) : {};
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Alt text of the two images and the caption; a style a model draws in the product is said to be drawn here by the engine. */
export function figureText(spec: FigureSpec): { beforeAlt: string; afterAlt: string; caption: string } {
  const { subject, credit } = FIGURE_PHOTOS[spec.photo];
  const name = getStyle(spec.style)?.name ?? spec.style;
  const generative = DEFAULT_GENERATIVE.includes(spec.style);
  const caption = generative
    ? `Before and after: ${subject} in the ${name} style, drawn for this page by our cartoon engine. In the product your ${name} image is made by the AI model, so it will look different. Photo: ${credit}.`
    : `Before and after: ${subject} in the ${name} style, as {brand} draws it. Photo: ${credit}.`;
  return {
    beforeAlt: `Original photo: ${subject}`,
    afterAlt: `The same photo in the ${name} style${generative ? ", drawn by our cartoon engine, not the AI model" : ''}`,
    caption,
  };
}

function img(image: FigureImage, alt: string): string {
  return `<img src="${FIGURE_WEB_DIR}/${image.file}" srcset="${figureSrcset(image)}" sizes="${FIGURE_SIZES}" width="${image.width}" height="${image.height}" alt="${escapeHtml(alt)}" loading="lazy" decoding="async">`;
}

/** The figure's HTML; throws when it has not been rendered (run `npm run figures`). */
export function figureHtml(spec: FigureSpec, manifest: FigureManifest, file: string): string {
  const record = manifest[figureKey(spec)];
  if (!record) throw new Error(`${file}: figure ${figureKey(spec)} is not rendered: run npm run figures`);
  const t = figureText(spec);
  return [
    `<figure class="article-figure" data-figure="${escapeHtml(figureKey(spec))}">`,
    `<div>${img(record.before, t.beforeAlt)}${img(record.after, t.afterAlt)}</div>`,
    `<figcaption>${escapeHtml(t.caption)}</figcaption>`,
    '</figure>',
  ].join('');
}

/** The body with its figure placed before the first section heading (below the page's opening), else at the end. */
export function withFigure(html: string, figure: string): string {
  const at = html.indexOf('<h2');
  return at < 0 ? `${html}${figure}` : `${html.slice(0, at)}${figure}\n${html.slice(at)}`;
}
