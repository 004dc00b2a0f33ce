import { describe, expect, it } from 'vitest';
import { planFacts } from '../../src/prompter/plan-facts.js';

describe('planFacts', () => {
  it('reads the partitioner variant, image block types (aliases resolved) and description nodes', () => {
    const facts = planFacts([
      {
        name: 'P',
        type: 'partition',
        subtype: 'unstructured_api',
        settings: { strategy: 'hi_res', extract_image_block_types: ['Figure', 'List-item', 'Table', 'Bogus'] },
      },
      { name: 'D', type: 'prompter', subtype: 'provider_a_table_description', settings: {} },
      { name: 'O', type: 'prompter', subtype: 'anthropic_ocr', settings: {} },
    ]);
    expect(facts.partitioner).toBe('hi_res');
    expect([...facts.imageBlockTypes].sort()).toEqual(['Image', 'ListItem', 'Table']);
    expect(facts.describesTables).toBe(true);
    expect(facts.describesImages).toBe(false);
  });
  it('knows the four variants, and none without a partitioner', () => {
    const variant = (subtype: string, settings: Record<string, unknown>) => planFacts([{ name: 'P', type: 'partition', subtype, settings }]).partitioner;
    expect(variant('unstructured_api', { strategy: 'fast' })).toBe('fast');
    expect(variant('vlm', { is_dynamic: true })).toBe('auto');
    expect(variant('vlm', { is_dynamic: false })).toBe('vlm');
    expect(planFacts([]).partitioner).toBeUndefined();
    expect(planFacts([]).imageBlockTypes.size).toBe(0);
  });
});
