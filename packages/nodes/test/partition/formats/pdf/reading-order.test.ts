import { describe, expect, it } from 'vitest';
import { orderBlocks } from '../../../../src/partition/formats/pdf/reading-order.js';

describe('orderBlocks', () => {
  it('orders side-by-side boxes left to right and stacked boxes top to bottom', () => {
    const b = (id: string, x0: number, y0: number, x1: number, y1: number) => ({ id, box: { x0, y0, x1, y1 } });
    const order = orderBlocks([b('footer', 72, 750, 540, 760), b('right', 320, 100, 540, 700), b('left', 72, 100, 300, 700), b('title', 72, 50, 540, 80)]);
    expect(order.map((o) => o.id)).toEqual(['title', 'left', 'right', 'footer']);
  });
});
