import { DISCOUNT_PERCENT, formatPrice, orderSummary, pricePerImage } from '../../domain/pricing';

describe('pricePerImage', () => {
  it.each([
    [1, 80],
    [2, 70],
    [3, 65],
    [4, 60],
    [5, 50],
    [8, 50],
    [50, 50],
  ])('%i style(s) -> %i cents per image', (styles, cents) => {
    expect(pricePerImage(styles)).toBe(cents);
  });

  it('is 0 without a valid style count', () => {
    expect(pricePerImage(0)).toBe(0);
    expect(pricePerImage(-1)).toBe(0);
    expect(pricePerImage(1.5)).toBe(0);
    expect(pricePerImage(Number.NaN)).toBe(0);
  });
});

describe('orderSummary', () => {
  it('matches the spec example: 1 image and 3 styles = 3 images at $0.65 = $1.95 list price', () => {
    const s = orderSummary(1, 3);
    expect(s.totalGenerations).toBe(3);
    expect(s.pricePerGeneration).toBe(65);
    expect(s.originalPrice).toBe(195);
    expect(formatPrice(s.originalPrice)).toBe('$1.95');
  });

  it('applies the 30% discount in whole cents and keeps total = original - discount', () => {
    expect(DISCOUNT_PERCENT).toBe(30);
    const s = orderSummary(1, 3);
    expect(s.discount).toBe(59); // 58.5 rounded half up
    expect(s.total).toBe(136);
    for (let images = 0; images <= 50; images += 7) {
      for (let styles = 0; styles <= 8; styles++) {
        const o = orderSummary(images, styles);
        expect(Number.isInteger(o.discount)).toBe(true);
        expect(o.total).toBe(o.originalPrice - o.discount);
        expect(o.totalGenerations).toBe(images * styles);
      }
    }
  });

  it('computes a larger order without float drift', () => {
    const s = orderSummary(3, 2); // 6 x $0.70 = $4.20, -$1.26 = $2.94
    expect([s.imagesUploaded, s.stylesSelected, s.totalGenerations]).toEqual([3, 2, 6]);
    expect([s.originalPrice, s.discount, s.total]).toEqual([420, 126, 294]);
    const big = orderSummary(50, 8); // 400 x $0.50
    expect([big.originalPrice, big.discount, big.total]).toEqual([20000, 6000, 14000]);
  });

  it('is all zeros for an empty order', () => {
    const s = orderSummary(0, 0);
    expect([s.totalGenerations, s.originalPrice, s.discount, s.total]).toEqual([0, 0, 0, 0]);
  });
});

describe('formatPrice', () => {
  it('formats cents as dollars', () => {
    expect(formatPrice(0)).toBe('$0.00');
    expect(formatPrice(5)).toBe('$0.05');
    expect(formatPrice(80)).toBe('$0.80');
    expect(formatPrice(195)).toBe('$1.95');
    expect(formatPrice(123456)).toBe('$1,234.56');
    expect(formatPrice(-59)).toBe('-$0.59');
  });
});
