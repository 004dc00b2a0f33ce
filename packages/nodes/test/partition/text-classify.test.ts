import { describe, expect, it } from 'vitest';
import {
  classifyMarkupText,
  classifyText,
  cleanBullets,
  containsVerb,
  elementFromText,
  exceedsCapRatio,
  isBulletedText,
  isEmailAddress,
  isEmptyBullet,
  isNumberedSectionHeading,
  isPossibleNarrativeText,
  isPossibleNumberedList,
  isPossibleTitle,
  isUsCityStateZip,
  looksEnglish,
  pyIsAlpha,
  pyIsNumeric,
  pyIsTitle,
  pyIsUpper,
  sentenceCount,
  underNonAlphaRatio,
} from '../../src/partition/text-classify.js';

describe('Python string predicates', () => {
  it('isupper needs a cased character and no lower-case one', () => {
    expect(pyIsUpper('ITEM 1A.')).toBe(true);
    expect(pyIsUpper('Item')).toBe(false);
    expect(pyIsUpper('123')).toBe(false);
  });

  it('istitle follows Python word-by-word rules', () => {
    expect(pyIsTitle('Hello')).toBe(true);
    expect(pyIsTitle('Hello World')).toBe(true);
    expect(pyIsTitle('McDonald')).toBe(false);
    expect(pyIsTitle('HELLO')).toBe(false);
    expect(pyIsTitle('hello')).toBe(false);
  });

  it('isalpha and isnumeric', () => {
    expect(pyIsAlpha('Grüße')).toBe(true);
    expect(pyIsAlpha("don't")).toBe(false);
    expect(pyIsNumeric('2024')).toBe(true);
    expect(pyIsNumeric('20.5')).toBe(false);
  });
});

describe('measures', () => {
  it('counts sentences with a minimum number of words', () => {
    expect(sentenceCount('One short. This sentence is long enough to count.')).toBe(2);
    expect(sentenceCount('One short. This sentence is long enough to count.', 5)).toBe(1);
    expect(sentenceCount('ITEM 1A. RISK FACTORS', 5)).toBe(0);
  });

  it('measures the share of letters', () => {
    expect(underNonAlphaRatio('-----------BREAK---------')).toBe(true);
    expect(underNonAlphaRatio('Risk factors 2024')).toBe(false);
    expect(underNonAlphaRatio('   ')).toBe(false);
  });

  it('measures capitalised words over alphabetic tokens', () => {
    expect(exceedsCapRatio('ITEM 1. Financial Statements (Unaudited)')).toBe(true);
    expect(exceedsCapRatio('The company reported strong results.')).toBe(false);
    expect(exceedsCapRatio('ALL CAPS TEXT')).toBe(true);
    expect(exceedsCapRatio('1234 5678')).toBe(true);
  });

  it('finds verbs with the part-of-speech tagger', () => {
    expect(containsVerb('The sample docs directory contains the following files:')).toBe(true);
    expect(containsVerb('Quarterly Financial Statements')).toBe(false);
    expect(containsVerb('THE BOARD APPROVED THE PLAN')).toBe(true);
  });

  it('tells English from other languages by common words', () => {
    expect(looksEnglish('The board approved the plan on Monday.')).toBe(true);
    expect(looksEnglish('Todo taotao siha man mafanago libertao yan pareho gi dignidad')).toBe(false);
    expect(looksEnglish('人人生而自由')).toBe(false);
  });
});

describe('classifiers', () => {
  it('narrative text', () => {
    expect(isPossibleNarrativeText('The company reported strong results for the year.')).toBe(true);
    expect(isPossibleNarrativeText('Risk Factors')).toBe(false);
    expect(isPossibleNarrativeText('2024')).toBe(false);
    expect(isPossibleNarrativeText('Quarterly revenue figures')).toBe(false);
    expect(isPossibleNarrativeText('')).toBe(false);
  });

  it('titles', () => {
    expect(isPossibleTitle('ITEM 1A. RISK FACTORS')).toBe(true);
    expect(isPossibleTitle('Example Docs')).toBe(true);
    expect(isPossibleTitle('To My Dearest Friends,')).toBe(false);
    expect(isPossibleTitle('GALAXY GAMING, INC.')).toBe(false);
    expect(isPossibleTitle('one two three four five six seven eight nine ten eleven twelve thirteen')).toBe(false);
    expect(isPossibleTitle('2021')).toBe(false);
    expect(isPossibleTitle('This is the first sentence here. This is the second sentence here.')).toBe(false);
  });

  it('bullets, e-mail addresses, addresses and numbered lists', () => {
    expect(isBulletedText('• item')).toBe(true);
    expect(isBulletedText('- item')).toBe(true);
    expect(isBulletedText('------')).toBe(false);
    expect(cleanBullets('●  This is an excellent point!')).toBe('This is an excellent point!');
    expect(cleanBullets('no bullet')).toBe('no bullet');
    expect(isEmptyBullet('•')).toBe(true);
    expect(isEmailAddress('jane.doe@example.com')).toBe(true);
    expect(isEmailAddress('Jane at example dot com')).toBe(false);
    expect(isUsCityStateZip('Doylestown, PA 18901')).toBe(true);
    expect(isUsCityStateZip('DOYLESTOWN, PENNSYLVANIA 18901')).toBe(true);
    expect(isUsCityStateZip('Doylestown is nice')).toBe(false);
    expect(isPossibleNumberedList('1. Buy milk')).toBe(true);
    expect(isPossibleNumberedList('2) Sell eggs')).toBe(true);
    expect(isPossibleNumberedList('1.1 Section')).toBe(false);
  });

  it('classifyText follows the reference order', () => {
    expect(classifyText('• Buy milk')).toEqual({ type: 'ListItem', text: 'Buy milk' });
    expect(classifyText('jane@example.com')).toEqual({ type: 'EmailAddress', text: 'jane@example.com' });
    expect(classifyText('Doylestown, PA 18901')).toEqual({ type: 'Address', text: 'Doylestown, PA 18901' });
    expect(classifyText('1. Buy milk')).toEqual({ type: 'ListItem', text: '1. Buy milk' });
    expect(classifyText('The cat sat on the mat.').type).toBe('NarrativeText');
    expect(classifyText('Annual Report').type).toBe('Title');
    expect(classifyText('$ 1,234.56').type).toBe('UncategorizedText');
  });

  it('types a numbered section heading as a Title, a numbered sentence or list item as before', () => {
    // unstructured: NarrativeText (a verb), UncategorizedText (more digits than letters), Title.
    for (const heading of ['2.3.5. Installing the unit', '2.3.5. Setup', '1.1 Background', '10.2.1 Wiring Diagram']) {
      expect(classifyText(heading), heading).toEqual({ type: 'Title', text: heading });
      expect(classifyMarkupText(heading)?.type, heading).toBe('Title');
    }
    expect(classifyText('1. Introduction').type).toBe('ListItem');
    expect(classifyText('2.3.5. Remove the cover.').type).toBe('NarrativeText');
    expect(classifyText('2.5 Million tonnes were shipped in 2020.').type).toBe('NarrativeText');
    expect(isNumberedSectionHeading('2.1 the value below')).toBe(false);
    expect(classifyText('4.5 mm').type).toBe('UncategorizedText');
    expect(isNumberedSectionHeading('2.1 A heading of far too many words to be a heading at all here')).toBe(false);
  });

  it('classifyMarkupText drops one-character text and keeps numbered lines as text', () => {
    expect(classifyMarkupText('x')).toBeUndefined();
    expect(classifyMarkupText('•')).toBeUndefined();
    expect(classifyMarkupText('1. The board approved the plan.')?.type).toBe('NarrativeText');
  });

  it('elementFromText creates an element with a temporary id', () => {
    const el = elementFromText('Annual Report', { page_number: 2 });
    expect(el).toMatchObject({ type: 'Title', text: 'Annual Report', metadata: { page_number: 2 } });
    expect(el.element_id).toBeTruthy();
  });
});

describe('underNonAlphaRatio fast path', () => {
  // The straightforward definition: share of non-whitespace code points that are letters.
  const reference = (text: string, threshold: number): boolean => {
    const chars = [...text].filter((ch) => !/^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/.test(ch));
    const alpha = chars.filter((ch) => /\p{L}/u.test(ch)).length;
    return chars.length > 0 ? alpha / chars.length < threshold : false;
  };

  it('agrees with the per-character Unicode definition on mixed scripts, digits and astral characters', () => {
    const pool = ['a', 'Z', '1', '.', ' ', '\n', 'é', 'ß', 'Ж', '中', '٣', '😀', '𝐀', '\u00a0', '-', 'ﬁ', '\u3000'];
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 500; n++) {
      const text = Array.from({ length: 1 + Math.floor(rand() * 30) }, () => pool[Math.floor(rand() * pool.length)]).join('');
      for (const t of [0.3, 0.5, 0.8]) expect(underNonAlphaRatio(text, t), JSON.stringify(text)).toBe(reference(text, t));
    }
  });
});
