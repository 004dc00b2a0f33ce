import { describe, expect, it } from 'vitest';
import { headingScores, longestIncreasing, matchElements, scoreDocument, tokenF1, tokens } from '../../src/eval/metrics.js';

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
    const pairs = matchElements(
      [{ type: 'T', text: 'same words here' }],
      [
        { type: 'T', text: 'same words here' },
        { type: 'T', text: 'same words here' },
      ],
    );
    expect(pairs).toEqual([[0, 0]]);
  });
});

describe('heading scores', () => {
  const title = (text: string, depth?: number) => ({ type: 'Title', text, ...(depth === undefined ? {} : { depth }) });
  it('matches Titles by normalized text, once each, and compares levels', () => {
    const expected = [title('1 Introduction', 0), title('1.1 Scope', 1), { type: 'NarrativeText', text: 'Body.' }, title('2 Method', 0)];
    const output = [title('1  INTRODUCTION', 0), title('1.1 scope:', 0), title('SELECT'), title('1 Introduction'), { type: 'NarrativeText', text: '2 Method' }];
    expect(headingScores(output, expected)).toEqual({
      heading_precision: 2 / 4,
      heading_recall: 2 / 3,
      heading_f1: (2 * (2 / 4) * (2 / 3)) / (2 / 4 + 2 / 3),
      expected_headings: 3,
      output_headings: 4,
      matched_headings: 2,
      heading_levels: 1 / 2,
    });
  });

  it('counts no Titles on a side as nothing wrong there, and gives no level score without depths', () => {
    expect(headingScores([], [title('Only heading')])).toMatchObject({ heading_precision: 1, heading_recall: 0, heading_f1: 0 });
    expect(headingScores([title('Extra')], [])).toMatchObject({ heading_precision: 0, heading_recall: 1, heading_f1: 0 });
    expect(headingScores([title('Same')], [title('Same')])).not.toHaveProperty('heading_levels');
  });
});
