import * as fs from 'node:fs';
import * as path from 'node:path';
import { CONTENT_COLLECTIONS } from '../../domain/site-routes';
import { FACT_NAMES, resolveFacts } from '../../frontend/src/blog/facts';

/**
 * Prices, limits, sizes and the number of styles come from the code (frontend/src/blog/facts.ts). A figure typed
 * into an article or a guide goes stale the day the code changes, so typing one fails here; so does a placeholder
 * the build does not know.
 */
const root = path.resolve(__dirname, '../..');
const pages = Object.values(CONTENT_COLLECTIONS).flatMap((c) => {
  const dir = path.join(root, c.dir);
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => /\.mdx?$/.test(f))
        .map((f) => path.join(c.dir, f))
    : [];
});

/** What a typed fact looks like. */
const TYPED: Array<[string, RegExp]> = [
  ['an amount of money', /[$€£]\s?\d|\b\d+(\.\d+)?\s?(cents?|¢|dollars?|USD)\b|\b(ten|five|twenty|fifty) cents\b/gi],
  ['a percentage', /\b\d+(\.\d+)?\s?(%|percent\b)/gi],
  ['a file size', /\b\d+(\.\d+)?\s?(MB|KB|GB|megabytes?)\b/gi],
  ['a photo size in megapixels', /\b\d+(\.\d+)?\s?(MP|megapixels?)\b/g],
  ['a size in pixels', /\b\d[\d,]*\s?(×\s?\d[\d,]*\s?)?(px|pixels)\b|\b(256|1536|2048)\b/gi],
  [
    'the number of styles',
    /\b(8|eight)\b(?=(\s+[a-z-]+){0,2}\s+(styles|looks|previews)\b)|\b(all|has) (8|eight)\b|\b8 styles\b/gi,
  ],
  [
    // How many styles the model draws and how many the engine draws follow `generativeStyles` (domain/config.ts).
    'a count of generative or engine-drawn styles',
    /\b(the other|one of( the)?|the|these|both)\s+(one|two|three|four|five|six|seven|\d+)\s+([a-z-]+\s+)?styles\b|\b(one|two|three|four|five|six|seven|\d+) of the styles\b|\bthe other (one|two|three|four|five|six|seven|\d+)\b/gi,
  ],
  ['the photo limit', /\b50\s+(photos|files|pictures)\b|\b(up to|at most|of|maximum( of)?)\s+(\*\*)?50\b|\bfifty\b/gi],
];

/**
 * Pixel figures that are not the product's: advice about other places a picture is shown, or about the photo
 * one uploads. Each is matched exactly, so a new typed size is still caught.
 */
const NOT_OURS: RegExp[] = [
  /recognisable at 40 pixels in a chat list/,
  /a circle about 40 pixels wide/,
  /at least 400 × 400 pixels/,
  /around 3000–4000 pixels/,
  /At 40 pixels wide, subtle textures/,
  /Shrink it to 40 pixels/,
  /SHA-256/g,
];

/**
 * Claims about the paid size the product no longer makes true: every paid image is exactly {size.paid} on its long
 * side (domain/image-format.ts PAID_LONG_SIDE), smaller photos and model outputs enlarged to it. A page that says
 * the size is a ceiling, or that images are never enlarged, is wrong whatever figure it names.
 */
const FALSE_SIZE_CLAIMS: RegExp[] = [
  /\b(never|not)\s+(be\s+)?(enlarged|upscaled|blown up)\b/gi,
  /\benlarged\s+beyond\b/gi,
  /\b(up to|at most|no more than|as much as)\s+(\*\*)?\{size\.paid\}/gi,
];

function falseSizeClaims(text: string): string[] {
  return FALSE_SIZE_CLAIMS.flatMap((re) => [...text.matchAll(re)].map((m) => m[0]));
}

function typedFacts(raw: string): string[] {
  const text = NOT_OURS.reduce((t, re) => t.replace(re, ''), raw.replace(/\{[A-Za-z][\w.]*(:[\w.-]+)*\}/g, ''));
  const found: string[] = [];
  for (const [what, re] of TYPED) {
    for (const m of text.matchAll(re)) {
      const at = m.index ?? 0;
      found.push(`${what}: "${text.slice(Math.max(0, at - 30), at + m[0].length + 10).replace(/\s+/g, ' ')}"`);
    }
  }
  return found;
}

describe('facts in articles and guides', () => {
  test('there are pages to check', () => {
    expect(pages.length).toBeGreaterThan(40);
  });

  test.each(pages)('%s: no price, style count, limit or size typed in', (file) => {
    expect(typedFacts(fs.readFileSync(path.join(root, file), 'utf8'))).toEqual([]);
  });

  test.each(pages)('%s: no outdated claim that paid images are at most a size or never enlarged', (file) => {
    expect(falseSizeClaims(fs.readFileSync(path.join(root, file), 'utf8'))).toEqual([]);
  });

  test('the size-claim scan catches the old wording and passes the true one', () => {
    expect(falseSizeClaims('A PNG up to {size.paid} pixels, never enlarged beyond your photo.')).toHaveLength(3);
    expect(falseSizeClaims('Images are at most **{size.paid} pixels**; the output is not enlarged.')).toHaveLength(2);
    expect(
      falseSizeClaims('A PNG {size.paid} pixels on the long side; a smaller photo is enlarged. Never enlarge a copy.'),
    ).toEqual([]);
  });

  test.each(pages)('%s: every placeholder is known', (file) => {
    expect(() => resolveFacts(fs.readFileSync(path.join(root, file), 'utf8'), file)).not.toThrow();
  });

  test('the scan catches typed figures', () => {
    expect(typedFacts('Each image costs $0.80, less 30% off.')).toHaveLength(2);
    expect(typedFacts('Files under 10 MB, up to 50 photos, 40 megapixels at most.')).toHaveLength(3);
    expect(typedFacts('All eight styles; a PNG of 2048 pixels; a 256 px preview.')).toHaveLength(3);
    expect(typedFacts('A photo of eight people, 3 styles, the fifth style.')).toEqual([]);
    expect(
      typedFacts('One of the two styles; the other six styles; the two generative styles; Two of the styles.'),
    ).toHaveLength(4);
    expect(typedFacts('Three photos in two styles; {price:2} each for two styles; the other styles.')).toEqual([]);
    expect(typedFacts('Each image costs {price:1}; {styles.count:word} styles, {size.paid} pixels.')).toEqual([]);
  });
});

describe('fact placeholders', () => {
  test('resolve from the code', () => {
    expect(resolveFacts('{price:1} {price:3} {price:9} {price:all}', 'x')).toBe('$0.80 $0.65 $0.50 $0.50');
    expect(resolveFacts('{list:1x3} {paid:1x3} {refund:1x3:1} {refund:1x3:3} {list:1xall}', 'x')).toBe(
      '$1.95 $1.36 $0.45 $1.36 $4.00',
    );
    expect(resolveFacts('{discount.percent} {styles.count} {styles.count:word} {styles.count:Word}', 'x')).toBe(
      '30% 8 eight Eight',
    );
    expect(resolveFacts('{limits.maxPhotos} {limits.maxFileMb} {limits.maxMegapixels}', 'x')).toBe('50 10 40');
    expect(resolveFacts('{size.preview} {size.paid} {size.minShort}', 'x')).toBe('256 2048 256');
    expect(resolveFacts('{retention.images}', 'x')).toBe('30');
    expect(resolveFacts('{poll.seconds} {poll.seconds:word}', 'x')).toBe('2 two');
  });

  test('leave {brand} for the page and braces that are not placeholders alone', () => {
    expect(resolveFacts('{brand} costs {price:1}; {} { x } {1}', 'x')).toBe('{brand} costs $0.80; {} { x } {1}');
  });

  test('an unknown placeholder or a bad argument fails, naming the file and the placeholder', () => {
    expect(() => resolveFacts('See {prices:1}.', 'blog/posts/a.md')).toThrow(
      /^blog\/posts\/a\.md: unknown placeholder \{prices:1\}/,
    );
    expect(() => resolveFacts('{price:0}', 'g.md')).toThrow('g.md: placeholder {price:0}: styles must be');
    expect(() => resolveFacts('{list:3}', 'g.md')).toThrow('g.md: placeholder {list:3}: expects photos x styles');
    expect(() => resolveFacts('{styles.count:roman}', 'g.md')).toThrow('unknown form "roman"');
    expect(() => resolveFacts('{size.paid:2}', 'g.md')).toThrow('size.paid takes no argument');
  });

  test('every fact is documented in the module', () => {
    const doc = fs.readFileSync(path.join(root, 'frontend/src/blog/facts.ts'), 'utf8').split('*/')[0];
    for (const name of FACT_NAMES) expect([name, doc.includes(`{${name}`)]).toEqual([name, true]);
  });
});
