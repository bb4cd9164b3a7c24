/**
 * Pricing rules (docs/product-spec.md §9). Pure and shared by the browser (order summary, pricing page)
 * and the server (checkout amount), so both always agree on the figures.
 *
 * Every amount is an integer number of US cents to avoid floating-point drift.
 */

/** Per-generated-image price in cents, indexed by the number of styles chosen (5 or more = last tier). */
export const PRICE_TIERS: ReadonlyArray<{ styles: number; cents: number; label: string }> = [
  { styles: 1, cents: 80, label: '1 style' },
  { styles: 2, cents: 70, label: '2 styles' },
  { styles: 3, cents: 65, label: '3 styles' },
  { styles: 4, cents: 60, label: '4 styles' },
  { styles: 5, cents: 50, label: '5 or more styles' },
];

/** Limited-time discount shown as 'Discount (30%)' on the order screen. */
export const DISCOUNT_PERCENT = 30;

export const CURRENCY = 'usd';

/** Price in cents of one generated image when `styleCount` unique styles are chosen. */
export function pricePerImage(styleCount: number): number {
  if (!Number.isInteger(styleCount) || styleCount < 1) return 0;
  const tier = PRICE_TIERS.find((t) => t.styles === Math.min(styleCount, 5));
  return tier ? tier.cents : 0;
}

export interface OrderSummary {
  imagesUploaded: number;
  stylesSelected: number;
  /** images x styles */
  totalGenerations: number;
  /** cents */
  pricePerGeneration: number;
  /** cents: generations x per-image price */
  originalPrice: number;
  /** cents: 30% of the original price, rounded to the nearest cent */
  discount: number;
  /** cents: original minus discount */
  total: number;
  discountPercent: number;
}

export function orderSummary(imageCount: number, styleCount: number): OrderSummary {
  const images = Math.max(0, Math.floor(imageCount) || 0);
  const styles = Math.max(0, Math.floor(styleCount) || 0);
  const totalGenerations = images * styles;
  const pricePerGeneration = pricePerImage(styles);
  const originalPrice = totalGenerations * pricePerGeneration;
  const discount = Math.round((originalPrice * DISCOUNT_PERCENT) / 100);
  return {
    imagesUploaded: images,
    stylesSelected: styles,
    totalGenerations,
    pricePerGeneration,
    originalPrice,
    discount,
    total: originalPrice - discount,
    discountPercent: DISCOUNT_PERCENT,
  };
}

/** 195 -> '$1.95'; negative amounts get a leading minus: -59 -> '-$0.59'. */
export function formatPrice(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  const dollars = Math.floor(abs / 100);
  const rest = String(abs % 100).padStart(2, '0');
  return `${sign}$${dollars.toLocaleString('en-US')}.${rest}`;
}
