/**
 * Facts the articles and guides state, read from the code at build time so a page never goes stale when a price, a
 * limit or the catalogue changes. frontend/build/content.ts resolves them in every page's text and front matter;
 * an unknown placeholder fails the build, naming the file and the placeholder.
 *
 * Placeholders (S = number of styles, or `all` for the whole catalogue; P = number of photos; U = images not
 * delivered):
 *   {price:S}            price of one image when S styles are chosen: {price:1} → $0.80
 *   {list:PxS}           list price of P photos × S styles, before the discount: {list:1x3} → $1.95
 *   {paid:PxS}           what that order costs with the current discount: {paid:1x3} → $1.36
 *   {refund:PxS:U}       what is refunded when U of its images are not delivered: {refund:1x3:1} → $0.45
 *   {discount.percent}   the current discount: 30%
 *   {styles.count}       number of styles in the catalogue: 8 ({styles.count:word} → eight, :Word → Eight)
 *   {styles.engine.count} number of styles the engine draws by default (the rest are generative): 6 (:word, :Word)
 *   {limits.maxPhotos}   photos per order: 50
 *   {limits.maxFileMb}   upload size limit in MB (files must be smaller): 10
 *   {limits.maxMegapixels} largest photo in megapixels: 40
 *   {size.preview}       long side of a free preview in px: 256
 *   {size.paid}          long side of every paid image in px, engine or model (smaller photos are enlarged): 2048
 *   {size.minShort}      shortest short side in px of a photo that can be ordered: 256
 *   {retention.images}   days a paid image is kept before it is deleted: 30
 *   {poll.seconds}       seconds between the style screen's checks for new previews: 2 ({poll.seconds:word} → two)
 * `{brand}` is left as it is: the brand comes from the runtime config and the page fills it in (content.ts).
 */

import { DEFAULT_GENERATIVE } from '../../../domain/generative';
import { MAX_PIXELS, MIN_SHORT_SIDE, PAID_LONG_SIDE, PREVIEW_LONG_SIDE } from '../../../domain/image-format';
import { JOB_POLL_MS } from '../../../domain/job-polling';
import { refundFor } from '../../../domain/orders';
import { DISCOUNT_PERCENT, formatPrice, orderSummary, pricePerImage } from '../../../domain/pricing';
import { RETENTION_DAYS } from '../../../domain/privacy';
import { STYLES } from '../../../domain/styles';
import { MAX_FILE_BYTES, MAX_FILES } from '../../../domain/upload-rules';

/** Placeholders the browser fills in, not the build. */
const RUNTIME = new Set(['brand']);

const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven'];

/** A count as digits, or as a word (`word`, `Word` for the start of a sentence). */
function count(n: number, form: string | undefined): string {
  if (form === undefined) return String(n);
  const word = WORDS[n];
  if ((form !== 'word' && form !== 'Word') || !word) throw new Error(`unknown form "${form}" (word or Word)`);
  return form === 'Word' ? word[0]!.toUpperCase() + word.slice(1) : word;
}

function whole(text: string | undefined, what: string, min = 1): number {
  const n = Number(text);
  if (!text || !Number.isInteger(n) || n < min) throw new Error(`${what} must be a whole number of at least ${min}`);
  return n;
}

/** A number of styles; `all` is the whole catalogue. */
const styleCount = (text: string | undefined) => (text === 'all' ? STYLES.length : whole(text, 'styles'));

/** "PxS" → photos and styles. */
function order(text: string | undefined): { photos: number; styles: number } {
  const m = /^(\d+)x(\d+|all)$/.exec(text ?? '');
  if (!m) throw new Error('expects photos x styles, e.g. 2x3');
  return { photos: whole(m[1], 'photos'), styles: styleCount(m[2]) };
}

function noArgs(name: string, value: () => string) {
  return (args: string[]) => {
    if (args.length) throw new Error(`${name} takes no argument`);
    return value();
  };
}

const FACTS: Record<string, (args: string[]) => string> = {
  price: ([s]) => formatPrice(pricePerImage(styleCount(s))),
  list: ([o]) => {
    const { photos, styles } = order(o);
    return formatPrice(orderSummary(photos, styles).originalPrice);
  },
  paid: ([o]) => {
    const { photos, styles } = order(o);
    return formatPrice(orderSummary(photos, styles).total);
  },
  refund: ([o, undelivered]) => {
    const { photos, styles } = order(o);
    const s = orderSummary(photos, styles);
    return formatPrice(refundFor(s.total, s.totalGenerations, whole(undelivered, 'images not delivered')));
  },
  'discount.percent': noArgs('discount.percent', () => `${DISCOUNT_PERCENT}%`),
  'styles.count': ([form, ...rest]) => {
    if (rest.length) throw new Error('styles.count takes one form at most');
    return count(STYLES.length, form);
  },
  'styles.engine.count': ([form, ...rest]) => {
    if (rest.length) throw new Error('styles.engine.count takes one form at most');
    return count(STYLES.length - DEFAULT_GENERATIVE.length, form);
  },
  'limits.maxPhotos': noArgs('limits.maxPhotos', () => String(MAX_FILES)),
  'limits.maxFileMb': noArgs('limits.maxFileMb', () => String(MAX_FILE_BYTES / (1024 * 1024))),
  'limits.maxMegapixels': noArgs('limits.maxMegapixels', () => String(MAX_PIXELS / 1_000_000)),
  'size.preview': noArgs('size.preview', () => String(PREVIEW_LONG_SIDE)),
  'size.paid': noArgs('size.paid', () => String(PAID_LONG_SIDE)),
  'size.minShort': noArgs('size.minShort', () => String(MIN_SHORT_SIDE)),
  'retention.images': noArgs('retention.images', () => String(RETENTION_DAYS.outputs)),
  'poll.seconds': ([form, ...rest]) => {
    if (rest.length) throw new Error('poll.seconds takes one form at most');
    return count(JOB_POLL_MS / 1000, form);
  },
};

export const FACT_NAMES: readonly string[] = Object.keys(FACTS);

/** `{name}` or `{name:arg:arg}`; anything else in braces is left alone. */
const PLACEHOLDER = /\{([A-Za-z][\w.]*)((?::[\w.-]+)*)\}/g;

/** The text with every fact placeholder replaced; throws naming `where` and the placeholder if one is unknown. */
export function resolveFacts(text: string, where: string): string {
  return text.replace(PLACEHOLDER, (match, name: string, args: string) => {
    if (RUNTIME.has(name) && !args) return match;
    const fact = FACTS[name];
    if (!fact)
      throw new Error(`${where}: unknown placeholder ${match} (known: ${[...RUNTIME, ...FACT_NAMES].join(', ')})`);
    try {
      return fact(args ? args.slice(1).split(':') : []);
    } catch (err) {
      throw new Error(`${where}: placeholder ${match}: ${(err as Error).message}`);
    }
  });
}
