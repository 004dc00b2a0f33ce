import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { packedModule, type BlockIndex } from '../../src/partition/packed-lexicon.js';
import { isCommonEnglishWord, posTag, type TaggedToken } from '../../src/partition/pos-tag.js';

const require = createRequire(import.meta.url);
const taggerPath = require.resolve('wink-pos-tagger');
const fromTagger = createRequire(taggerPath);
const VENDOR = new URL('../../vendor/wink-lexicon/', import.meta.url);
const CORPUS = new URL('../../../../../shared/corpus/docs/', import.meta.url);

// Sentences touching each path of the tagger: lexicon words, WordNet-only words and inflections
// (wn-words, the exceptions), capitalised WordNet nouns, unknown words, numbers, punctuation.
const SENTENCES = [
  'The sample docs directory contains the following files:',
  'Quarterly Financial Statements',
  'the board approved the plan',
  'Geese flew over the aardwolves while the zymurgist brewed.',
  'She was unhappier than the oxen, and the criteria were unclear.',
  'Aachen hosted 3.5 million visitors in the 1990s; prices rose 12%.',
  "Xyzzy frobnicated the quux, didn't it?",
  'Termination of the Agreement shall be effective upon written notice.',
];

/** Tags of `texts` from posTag in a fresh process: the packed dictionaries answer word by word there. */
function freshPosTags(texts: string[]): { value: string; pos: string }[][] {
  const script = `
    import { readFileSync } from 'node:fs';
    import { posTag } from ${JSON.stringify(new URL('../../src/partition/pos-tag.ts', import.meta.url).href)};
    const texts = JSON.parse(readFileSync(0, 'utf8'));
    process.stdout.write(JSON.stringify(texts.map((t) => posTag(t))));
  `;
  return JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      input: JSON.stringify(texts),
      maxBuffer: 64 * 1024 * 1024,
    }).toString(),
  ) as { value: string; pos: string }[][];
}

/** Tags of `texts` from wink-pos-tagger loading its own dictionaries, in a plain Node process. */
function plainWinkTags(texts: string[]): { value: string; pos: string }[][] {
  const script = `
    const tagger = require(${JSON.stringify(taggerPath)})();
    const texts = JSON.parse(require('fs').readFileSync(0, 'utf8'));
    const tags = texts.map((t) => tagger.tagSentence(t).filter((x) => x.tag === 'word').map((x) => ({ value: x.value, pos: x.pos })));
    process.stdout.write(JSON.stringify(tags));
  `;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { input: JSON.stringify(texts), maxBuffer: 64 * 1024 * 1024 }).toString()) as {
    value: string;
    pos: string;
  }[][];
}

describe('the packed tagger dictionaries', () => {
  it("are the data of wink-lexicon's modules, and the tagger is given them", () => {
    const manifest = JSON.parse(readFileSync(new URL('manifest.json', VENDOR), 'utf8')) as { version: string; modules: string[] };
    expect(manifest.version).toBe((fromTagger('wink-lexicon/package.json') as { version: string }).version);
    expect(manifest.modules).toContain('wn-words.js');
    posTag('warm the tagger up');
    // wink's own modules, loaded in a plain Node process: their data as JSON, and whether each is an array.
    const script = `
      const names = ${JSON.stringify(manifest.modules)};
      process.stdout.write(JSON.stringify(names.map((n) => { const d = require(${JSON.stringify(taggerPath)}.replace(/wink-pos-tagger[\\/]src[\\/].*$/, '') + 'wink-lexicon/src/' + n); return [JSON.stringify(d), Array.isArray(d), Object.getPrototypeOf(d) === null]; })));
    `;
    const own = JSON.parse(execFileSync(process.execPath, ['-e', script], { maxBuffer: 64 * 1024 * 1024 }).toString()) as Array<[string, boolean, boolean]>;
    manifest.modules.forEach((name, i) => {
      const cached = require.cache[fromTagger.resolve(`wink-lexicon/src/${name}`)]?.exports as object;
      const [json, array, nullPrototype] = own[i]!;
      expect(Array.isArray(cached)).toBe(array);
      expect(Object.getPrototypeOf(cached) === null).toBe(nullPrototype);
      // The same keys and values (an array's in order); keyed files are sorted by word for searching.
      expect([name, JSON.parse(JSON.stringify(cached))]).toEqual([name, JSON.parse(json)]);
    });
    // wink's own lexicon module gives words of the same tags one shared array; the packed lexicon
    // does not, so this tells that the tagger got the packed data.
    const lexicon = require.cache[fromTagger.resolve('wink-lexicon/src/lexicon.js')]?.exports as Record<string, string[]>;
    expect(lexicon.wrote).toEqual(lexicon.withdrew);
    expect(lexicon.wrote).not.toBe(lexicon.withdrew);
    // A word's tags are the same array each time, as from the module.
    expect(lexicon.wrote).toBe(lexicon.wrote);
  });

  it('tag as wink-pos-tagger does with its own modules', () => {
    const texts = [...SENTENCES];
    for (const doc of ['book-war-and-peace-1p.txt', 'UDHR_first_article_all.txt']) {
      const url = new URL(doc, CORPUS);
      if (existsSync(url))
        texts.push(
          ...readFileSync(url, 'utf8')
            .split(/\n+/)
            .filter((line) => line.trim()),
        );
    }
    if (texts.length === SENTENCES.length) console.warn('shared corpus absent: tagging the built-in sentences only');
    const expected = plainWinkTags(texts);
    expect(freshPosTags(texts)).toEqual(expected);
    // Here the dictionaries were built whole by the test above.
    expect(texts.map((t) => posTag(t))).toEqual(expected);
  });

  // The build bundles the tagger's code into vendor/wink-pos-tagger/ (one file to read instead of sixteen).
  it.runIf(existsSync(new URL('../../vendor/wink-pos-tagger/manifest.json', import.meta.url)))('load the tagger from its bundle', () => {
    const script = `
      import { createRequire } from 'node:module';
      import { posTag } from ${JSON.stringify(new URL('../../src/partition/pos-tag.ts', import.meta.url).href)};
      const tags = posTag('The geese flew over the houses');
      const cache = createRequire(import.meta.url).cache;
      process.stdout.write(JSON.stringify({ tags: tags.length, own: Object.keys(cache).filter((f) => /wink-(pos-tagger|tokenizer|lemmatizer|helpers)[\\\\/]src[\\\\/]/.test(f)) }));
    `;
    const out = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]).toString()) as {
      tags: number;
      own: string[];
    };
    expect(out).toEqual({ tags: 6, own: [] });
  });

  // A stand-in answers a word at a time from its file until something needs the whole data.
  it('find each word of the lexicon, the WordNet list and the exception lists one at a time', () => {
    const own = (name: string): Record<string, unknown> =>
      JSON.parse(
        execFileSync(
          process.execPath,
          ['-e', `process.stdout.write(JSON.stringify(require(${JSON.stringify(fromTagger.resolve(`wink-lexicon/src/${name}`))})))`],
          {
            maxBuffer: 64 * 1024 * 1024,
          },
        ).toString(),
      ) as Record<string, unknown>;
    const manifest = JSON.parse(readFileSync(new URL('manifest.json', VENDOR), 'utf8')) as {
      files: Record<string, string>;
      blocks: Record<string, BlockIndex>;
    };
    for (const name of ['lexicon.js', 'wn-words.js', 'wn-noun-exceptions.js', 'wn-verb-exceptions.js', 'wn-adjective-exceptions.js']) {
      const file = manifest.files[name]!;
      const packed = packedModule(VENDOR, file, manifest.blocks[file]!) as Record<string, unknown>;
      const words = Object.entries(own(name));
      expect(words.length).toBeGreaterThan(1000);
      const wrong = words.filter(([word, value]) => JSON.stringify(packed[word]) !== JSON.stringify(value));
      expect([name, wrong.length]).toEqual([name, 0]);
      // Before the first key, after the last, between two, and a key that is a prefix of others.
      expect([name, ...['', ' ', '~~~', 'zzqxv', 'Zzqxv', 'abe'].map((w) => w in packed || packed[w] !== undefined)]).toEqual([
        name,
        ...[false, false, false, false, false, false],
      ]);
    }
    const senses = packedModule(VENDOR, manifest.files['wn-word-senses.js']!, manifest.blocks[manifest.files['wn-word-senses.js']!]!) as number[][];
    const ownSenses = own('wn-word-senses.js') as unknown as number[][];
    expect(senses.length).toBe(ownSenses.length);
    const wrongSenses = ownSenses.filter((value, i) => JSON.stringify(senses[i]) !== JSON.stringify(value));
    expect(wrongSenses.length).toBe(0);
  }, 60_000);

  it('read the block that holds a word, not the WordNet files, when a word needs them', () => {
    const SENTENCE = 'The geese flew over the aardwolves';
    // A fresh process: this one's tagger is warm. Heap after a full collection, in MB: a plural
    // noun to lemmatize looks words up in the WordNet list, its senses and the exception lists
    // (1.1 MB of text, which a whole read left on the heap), a block of a few kilobytes each.
    const script = `
      import { posTag } from ${JSON.stringify(new URL('../../src/partition/pos-tag.ts', import.meta.url).href)};
      const heap = () => { globalThis.gc(); return process.memoryUsage().heapUsed / 2 ** 20; };
      posTag('hello');
      const before = heap();
      const tags = posTag(${JSON.stringify(SENTENCE)});
      process.stdout.write(JSON.stringify({ before, after: heap(), tags }));
    `;
    const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script]).toString();
    const { before, after, tags } = JSON.parse(out) as { before: number; after: number; tags: TaggedToken[] };
    expect(tags).toEqual(plainWinkTags([SENTENCE])[0]);
    expect(after - before).toBeLessThan(0.3);
  });

  it('serve the common-word test', () => {
    expect(isCommonEnglishWord('Approved')).toBe(true);
    expect(isCommonEnglishWord('zymurgist')).toBe(false);
  });
});
