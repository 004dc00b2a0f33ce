import { readFileSync } from 'node:fs';
import path from 'node:path';
import { francAll } from 'franc-min';
import { describe, expect, it } from 'vitest';
import { rankLanguages } from '../../src/partition/trigram-languages.js';
import { corpusDir, hasCorpus } from './reference-metrics.js';

// Texts of every script franc-min tells apart by trigrams (Latin, Cyrillic, Arabic, Devanagari),
// scripts of a single language, mixed scripts, and the undetermined.
const TEXTS = [
  'The committee met on Tuesday to discuss the budget for the coming year and agreed to postpone the vote.',
  'Tous les êtres humains naissent libres et égaux en dignité et en droits. Ils sont doués de raison et de conscience.',
  'Alle Menschen sind frei und gleich an Würde und Rechten geboren. Sie sind mit Vernunft und Gewissen begabt.',
  'Все люди рождаются свободными и равными в своем достоинстве и правах. Они наделены разумом и совестью.',
  'يولد جميع الناس أحرارًا متساوين في الكرامة والحقوق. وقد وهبوا عقلاً وضميرًا وعليهم أن يعامل بعضهم بعضًا بروح الإخاء.',
  'सभी मनुष्यों को गौरव और अधिकारों के मामले में जन्मजात स्वतन्त्रता और समानता प्राप्त है।',
  '人人生而自由，在尊严和权利上一律平等。他们赋有理性和良心，并应以兄弟关系的精神相对待。',
  'Όλοι οι άνθρωποι γεννιούνται ελεύθεροι και ίσοι στην αξιοπρέπεια και τα δικαιώματα.',
  'Stanley Cups Team Location Stanley Cups Blues STL 1 Flyers PHI 2 Maple Leafs TOR 13',
  'The Перевод of 人人 and the droits, 2024-11-29: 42 %, «ok» | a|b|c ||| İstanbul ǅ ß',
  '1234567890 12345',
  '!!!!!!!!!!!!!!!!',
  'short',
  '',
];

describe('rankLanguages', () => {
  it("ranks languages exactly as franc-min's francAll does", () => {
    for (const text of TEXTS) expect([text, rankLanguages(text)]).toEqual([text, francAll(text)]);
  });

  it('ranks every translation of the Universal Declaration in the corpus, and windows across them, as francAll does', (ctx) => {
    if (!hasCorpus) return ctx.skip('../shared/corpus is absent');
    const all = readFileSync(path.join(corpusDir, 'docs', 'UDHR_first_article_all.txt'), 'utf8');
    const paragraphs = all.split(/\n\s*\n/u);
    expect(paragraphs.length).toBeGreaterThan(300);
    const samples = [...paragraphs];
    // Windows of several lengths, some over a boundary between two languages or past 2048 characters.
    for (let start = 0; start < all.length; start += 997) samples.push(all.slice(start, start + 300), all.slice(start, start + 2500));
    let determined = 0;
    for (const text of samples) {
      const expected = francAll(text);
      expect([text, rankLanguages(text)]).toEqual([text, expected]);
      if (expected[0]![0] !== 'und') determined++;
    }
    expect(determined).toBeGreaterThan(300);
  });
});
