/**
 * The images of a before/after figure as frontend/build/figures.json records them (`npm run figures` writes them):
 * each at the figure's size and a smaller copy for phones, both WebP named by content hash under /figures.
 * Browser-safe, so the landing's sample and the build's article figures write the same `srcset`.
 */
export const FIGURE_WEB_DIR = '/figures';

export interface FigureFile {
  file: string;
  width: number;
  height: number;
}

export interface FigureImage extends FigureFile {
  small: FigureFile;
}

/** `srcset` of an image of a figure, its smaller copy first. */
export const figureSrcset = (image: FigureImage): string =>
  `${FIGURE_WEB_DIR}/${image.small.file} ${image.small.width}w, ${FIGURE_WEB_DIR}/${image.file} ${image.width}w`;
