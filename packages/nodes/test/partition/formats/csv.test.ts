import { describe, expect, it } from 'vitest';
import { csvPartitioner, tsvPartitioner } from '../../../src/partition/formats/csv.js';
import { compareToReference, corpusDoc, hasCorpus, makeOptions } from './helpers.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('csvPartitioner', () => {
  it('turns the whole file into one Table with every row, quoted fields and ragged rows padded', async () => {
    const els = await csvPartitioner.partition(enc('Team,City\r\n"Maple Leafs, The",TOR\r\n\r\nBlues,STL,extra\n'), makeOptions('teams.csv'));
    expect(els).toHaveLength(1);
    expect(els[0]!.type).toBe('Table');
    expect(els[0]!.text).toBe('Team City Maple Leafs, The TOR Blues STL extra');
    expect(els[0]!.metadata.text_as_html).toBe(
      '<table><tr><td>Team</td><td>City</td><td/></tr><tr><td>Maple Leafs, The</td><td>TOR</td><td/></tr><tr><td>Blues</td><td>STL</td><td>extra</td></tr></table>',
    );
  });

  it('sniffs a semicolon delimiter', async () => {
    const [el] = await csvPartitioner.partition(enc('a;b\n1;2\n'), makeOptions('s.csv'));
    expect(el!.metadata.text_as_html).toBe('<table><tr><td>a</td><td>b</td></tr><tr><td>1</td><td>2</td></tr></table>');
  });

  it('decodes the configured encoding and gives nothing for a blank file', async () => {
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x2c, 0x31]); // "café,1"
    const [el] = await csvPartitioner.partition(latin1, makeOptions('l.csv', { encoding: 'latin1' }));
    expect(el!.text).toBe('café 1');
    expect(await csvPartitioner.partition(enc('\n \n'), makeOptions('b.csv'))).toEqual([]);
  });
});

describe('tsvPartitioner', () => {
  it('splits on tabs only', async () => {
    const [el] = await tsvPartitioner.partition(enc('a,b\tc\n1\t2\n'), makeOptions('t.tsv'));
    expect(el!.metadata.text_as_html).toBe('<table><tr><td>a,b</td><td>c</td></tr><tr><td>1</td><td>2</td></tr></table>');
  });
});

describe.skipIf(!hasCorpus)('csvPartitioner on the corpus (skipped without /work/shared/corpus)', () => {
  it('stanley-cups.csv matches the reference text; html is the compact form of the same grid', async () => {
    const els = await csvPartitioner.partition(corpusDoc('stanley-cups.csv'), makeOptions('stanley-cups.csv'));
    const { f1, types } = compareToReference('stanley-cups.csv', els);
    expect(f1).toBe(1);
    expect(types).toBe(1);
    expect(els[0]!.metadata.text_as_html).toBe(
      '<table><tr><td>Stanley Cups</td><td/><td/></tr><tr><td>Team</td><td>Location</td><td>Stanley Cups</td></tr><tr><td>Blues</td><td>STL</td><td>1</td></tr><tr><td>Flyers</td><td>PHI</td><td>2</td></tr><tr><td>Maple Leafs</td><td>TOR</td><td>13</td></tr></table>',
    );
  });
});
