/**
 * "ToonZap" watermark drawn as vector strokes (no font needed: server containers such as
 * node:20-slim ship without fonts, and glyph paths render identically everywhere).
 */

/** Stroke glyphs on a 10-unit cap height, baseline y=10, descender to 13: [path, advance]. */
const GLYPHS: ReadonlyArray<readonly [string, number]> = [
  ['M0 0H7M3.5 0V10', 8.2], // T
  ['M0 7a2.8 3 0 1 0 5.6 0a2.8 3 0 1 0-5.6 0', 7.2], // o
  ['M0 7a2.8 3 0 1 0 5.6 0a2.8 3 0 1 0-5.6 0', 7.2], // o
  ['M0 4V10M0 6.8C0 4.2 5.2 3.2 5.2 6.8V10', 7.4], // n
  ['M0 0H7L0 10H7', 8.4], // Z
  ['M5.2 4V10M5.2 7a2.6 3 0 1 0-5.2 0a2.6 3 0 1 0 5.2 0', 7.2], // a
  ['M0 4V13M0 7a2.7 3 0 1 0 5.4 0a2.7 3 0 1 0-5.4 0', 6.2], // p
];

const OUTLINE = 1.5 + 1.4;
/** Ink box of the mark in glyph units, strokes included: the outline's half width sticks out on every side. */
const INK = {
  left: -OUTLINE / 2,
  top: -OUTLINE / 2,
  right: GLYPHS.reduce((a, [, adv]) => a + adv, 0) - 6.2 + 5.4 + OUTLINE / 2,
  bottom: 13 + OUTLINE / 2,
};

/**
 * SVG (same size as the image) with a semi-transparent 'ToonZap' mark in the bottom-right corner of the image's
 * centred square: pages show previews in square tiles (object-fit: cover), which crop the long side, and the
 * whole mark must stay in view there too.
 */
export function watermarkSvg(width: number, height: number): Buffer {
  const side = Math.min(width, height);
  const right = (width + side) / 2;
  const bottom = (height + side) / 2;
  const margin = Math.max(3, side * 0.03);
  const scale = Math.min(Math.max(36, side * 0.3), side - 2 * margin) / (INK.right - INK.left);
  const x0 = right - margin - INK.right * scale;
  const y0 = bottom - margin - INK.bottom * scale;
  let x = 0;
  const paths: string[] = [];
  for (const [d, adv] of GLYPHS) {
    paths.push(`<path transform="translate(${x.toFixed(2)} 0)" d="${d}"/>`);
    x += adv;
  }
  const glyphs = paths.join('');
  const sw = OUTLINE - 1.4;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<g transform="translate(${x0.toFixed(2)} ${y0.toFixed(2)}) scale(${scale.toFixed(4)})" fill="none" stroke-linecap="round" stroke-linejoin="round">` +
    `<g stroke="#000" stroke-opacity="0.35" stroke-width="${sw + 1.4}">${glyphs}</g>` +
    `<g stroke="#fff" stroke-opacity="0.8" stroke-width="${sw}">${glyphs}</g>` +
    '</g></svg>';
  return Buffer.from(svg);
}
