import {
  failureText,
  finalStatus,
  itemKey,
  itemProgress,
  orderItems,
  progressPercent,
  refundFor,
} from '../../domain/orders';
import { orderSummary } from '../../domain/pricing';

describe('order rules', () => {
  test('items are every (photo, style) pair', () => {
    expect(orderItems(['a', 'b'], ['x', 'y'])).toEqual([
      { image_hash: 'a', style: 'x' },
      { image_hash: 'a', style: 'y' },
      { image_hash: 'b', style: 'x' },
      { image_hash: 'b', style: 'y' },
    ]);
    expect(itemKey('a', 'x')).toBe('a:x');
  });

  test('refunds are a share of what was paid and never add up to more', () => {
    const { total, totalGenerations } = orderSummary(1, 3); // 3 × 65 = 195, less 59 = 136
    expect(total).toBe(136);
    expect(refundFor(total, totalGenerations, 0)).toBe(0);
    expect(refundFor(total, totalGenerations, 1)).toBe(45);
    expect(refundFor(total, totalGenerations, 2)).toBe(91);
    expect(refundFor(total, totalGenerations, 3)).toBe(136);
    expect(refundFor(total, totalGenerations, 9)).toBe(136);
    for (let g = 1; g <= 20; g++) {
      for (let n = 0; n <= g; n++) expect(refundFor(999, g, n)).toBeLessThanOrEqual(999);
    }
  });

  test("an order's progress comes from its items: each finished one moves it, queued ones are counted", () => {
    const p = itemProgress([{ state: 'done' }, { state: 'failed' }, { state: 'queued' }, { state: 'pending' }]);
    expect(p).toEqual({ ready: 1, failed: 1, queued: 1, total: 4, percent: 50 });
    expect(itemProgress([{ state: 'done' }, { state: 'done' }]).percent).toBe(100);
    expect(itemProgress([]).percent).toBe(0);
  });

  test('progress and final status', () => {
    expect(progressPercent(0, 4)).toBe(0);
    expect(progressPercent(1, 3)).toBe(33);
    expect(progressPercent(2, 3)).toBe(66);
    expect(progressPercent(299, 300)).toBe(99);
    expect(progressPercent(3, 3)).toBe(100);
    expect(progressPercent(0, 0)).toBe(0);
    expect(finalStatus(0)).toBe('failed');
    expect(finalStatus(1)).toBe('completed');
  });

  test('failure texts name the refund', () => {
    expect(failureText({ done: 2, failed: 0, refundCents: 0 })).toBeNull();
    expect(failureText({ done: 1, failed: 3, refundCents: 147 })).toBe(
      '3 of 4 images could not be generated. $1.47 has been refunded to your card.',
    );
    expect(failureText({ done: 0, failed: 2, refundCents: 98 })).toBe(
      'We could not generate your images. $0.98 has been refunded to your card.',
    );
  });
});
