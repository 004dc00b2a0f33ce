import { describe, expect, it } from 'vitest';
import { longestIncreasing, matchElements, scoreDocument, tokenF1, tokens } from '../../src/eval/metrics.js';

describe('eval metrics', () => {
  it('tokenizes words in any script, case-insensitively', () => {
    expect(tokens('Hello, World! Всеобщая 宣言 42')).toEqual(['hello', 'world', 'всеобщая', '宣言', '42']);
  });

  it('computes token multiset F1', () => {
    expect(tokenF1(['a', 'b', 'b'], ['a', 'b'])).toEqual({ precision: 2 / 3, recall: 1, f1: 0.8 });
    expect(tokenF1([], []).f1).toBe(1);
    expect(tokenF1(['x'], []).f1).toBe(0);
  });

  it('finds the longest increasing subsequence', () => {
    expect(longestIncreasing([0, 2, 1, 3, 4])).toBe(4);
    expect(longestIncreasing([])).toBe(0);
  });

  it('scores identical output as perfect and detects reordering, retyping and lost tables', () => {
    const expected = [
      { type: 'Title', text: 'Annual report' },
      { type: 'NarrativeText', text: 'Revenue grew in every region this year.' },
      { type: 'Table', text: 'Region Revenue North 10 South 12' },
      { type: 'NarrativeText', text: 'Costs fell slightly compared to last year.' },
    ];
    expect(scoreDocument(expected, expected)).toMatchObject({ text_f1: 1, order: 1, type_agreement: 1, tables_found: 1, expected_tables: 1, matched: 4 });
    const shuffled = [expected[3]!, expected[0]!, { ...expected[2]!, type: 'NarrativeText' }, expected[1]!];
    const s = scoreDocument(shuffled, expected);
    expect(s.text_f1).toBe(1);
    expect(s.order).toBe(0.5);
    expect(s.type_agreement).toBe(0.75);
    expect(s.tables_found).toBe(0);
  });

  it('matches each output element at most once', () => {
    const pairs = matchElements([{ type: 'T', text: 'same words here' }], [{ type: 'T', text: 'same words here' }, { type: 'T', text: 'same words here' }]);
    expect(pairs).toEqual([[0, 0]]);
  });
});
