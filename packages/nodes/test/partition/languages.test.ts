import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Element } from '@quarry/core';
import { applyLanguages, detectDocumentLanguages, detectLanguages, normalizeLanguageCode } from '../../src/partition/languages.js';
import { corpusDir, hasCorpus } from './reference-metrics.js';

const el = (text: string, languages?: string[]): Element => ({ element_id: text, type: 'NarrativeText', text, metadata: languages ? { languages } : {} });

const ENGLISH = 'The committee met on Tuesday to discuss the budget for the coming year and agreed to postpone the vote.';
const FRENCH = 'Tous les êtres humains naissent libres et égaux en dignité et en droits. Ils sont doués de raison et de conscience.';
const GERMAN = 'Alle Menschen sind frei und gleich an Würde und Rechten geboren. Sie sind mit Vernunft und Gewissen begabt.';
const CHINESE = '人人生而自由，在尊严和权利上一律平等。他们赋有理性和良心，并应以兄弟关系的精神相对待。';
const ARABIC = 'يولد جميع الناس أحرارًا متساوين في الكرامة والحقوق. وقد وهبوا عقلاً وضميرًا وعليهم أن يعامل بعضهم بعضًا بروح الإخاء.';

describe('detectLanguages', () => {
  it('returns [] for empty text', () => {
    expect(detectLanguages('')).toEqual([]);
    expect(detectLanguages('   \n')).toEqual([]);
  });

  it('defaults short ASCII text (fewer than five words) to English', () => {
    expect(detectLanguages('CHAPTER I')).toEqual(['eng']);
    expect(detectLanguages('Hola amigo mio')).toEqual(['eng']);
  });

  it('detects languages as ISO 639-3 codes the reference uses', () => {
    expect(detectLanguages(ENGLISH)).toEqual(['eng']);
    expect(detectLanguages(FRENCH)).toEqual(['fra']);
    expect(detectLanguages(GERMAN)).toEqual(['deu']);
    expect(detectLanguages(CHINESE)).toEqual(['zho']);
    expect(detectLanguages(ARABIC)).toEqual(['ara']);
  });

  it('keeps ASCII lists of names English when English is close to the winner', () => {
    expect(detectLanguages('Stanley Cups Team Location Stanley Cups Blues STL 1 Flyers PHI 2 Maple Leafs TOR 13')).toEqual(['eng']);
  });

  it('does not force English onto short non-ASCII text', () => {
    expect(detectLanguages('日本語')).toEqual([]);
  });
});

describe('normalizeLanguageCode', () => {
  it('maps 639-1, 639-2/B, Tesseract codes and names to ISO 639-3', () => {
    expect(normalizeLanguageCode('en')).toBe('eng');
    expect(normalizeLanguageCode('ger')).toBe('deu');
    expect(normalizeLanguageCode('chi_sim')).toBe('zho');
    expect(normalizeLanguageCode('French')).toBe('fra');
    expect(normalizeLanguageCode('spa')).toBe('spa');
  });
});

describe('applyLanguages', () => {
  it('applies the single document language to every element, short ones included', () => {
    const els = [el('Budget Meeting'), el(ENGLISH), el(ENGLISH.toUpperCase())];
    applyLanguages(els);
    expect(els.map((e) => e.metadata.languages)).toEqual([['eng'], ['eng'], ['eng']]);
  });

  it('writes caller languages as given, normalized', () => {
    const els = [el(FRENCH), el(ENGLISH)];
    applyLanguages(els, { languages: ['fr', 'en'] });
    expect(els.map((e) => e.metadata.languages)).toEqual([
      ['fra', 'eng'],
      ['fra', 'eng'],
    ]);
  });

  it('treats "auto" as detect', () => {
    const els = [el(GERMAN)];
    applyLanguages(els, { languages: ['auto', 'eng'] });
    expect(els[0]!.metadata.languages).toEqual(['deu']);
  });

  it('detects per element when the document mixes languages', () => {
    const parts = [ENGLISH, FRENCH, GERMAN, CHINESE].flatMap((t) => Array.from({ length: 12 }, () => t));
    const els = parts.map((t) => el(t));
    expect(detectDocumentLanguages(parts.join(' ')).length).toBeGreaterThan(1);
    applyLanguages(els);
    expect(els[0]!.metadata.languages).toEqual(['eng']);
    expect(els[12]!.metadata.languages).toEqual(['fra']);
    expect(els[24]!.metadata.languages).toEqual(['deu']);
    expect(els[36]!.metadata.languages).toEqual(['zho']);
  });

  it('detects per element when asked, and keeps languages a partitioner set', () => {
    const els = [el(ENGLISH), el(FRENCH), el(ENGLISH, ['spa'])];
    applyLanguages(els, { perElement: true });
    expect(els.map((e) => e.metadata.languages)).toEqual([['eng'], ['fra'], ['spa']]);
  });
});

describe.skipIf(!hasCorpus)('corpus languages (skipped without /work/shared/corpus)', () => {
  it('finds several languages in the UDHR collection and one in War and Peace', () => {
    const udhr = readFileSync(path.join(corpusDir, 'docs', 'UDHR_first_article_all.txt'), 'utf8');
    const book = readFileSync(path.join(corpusDir, 'docs', 'book-war-and-peace-1p.txt'), 'utf8');
    expect(detectDocumentLanguages(udhr).length).toBeGreaterThan(1);
    expect(detectDocumentLanguages(book)).toEqual(['eng']);
  });
});
