import { describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import { decodeHtml, htmlPartitioner, partitionHtmlString } from '../../../../src/partition/formats/html/index.js';
import { partitionFile } from '../../../../src/partition/partition-file.js';
import { formatOptions, utf8 } from '../../format-options.js';
import { corpusBytes, expectedElements, hasCorpus, tokenF1, typeAgreement } from '../../reference-metrics.js';

const summary = (html: string) => partitionHtmlString(html).map((e) => [e.type, e.text]);

describe('partitionHtmlString', () => {
  it('maps headings, paragraphs, list items and code blocks', () => {
    const html = `<html><head><title>Ignored title</title><style>p { color: red }</style></head><body>
      <h1>Annual Report</h1>
      <p>The company grew its revenue by ten percent during the year.</p>
      <h2>Highlights</h2>
      <ul><li>Revenue grew</li><li>Costs fell<ul><li>Mostly rent</li></ul></li></ul>
      <pre>
const x = 1;
  return x;
</pre>
      <script>var hidden = "never shown";</script>
    </body></html>`;
    const out = partitionHtmlString(html);
    expect(out.map((e) => [e.type, e.text, e.metadata.category_depth])).toEqual([
      ['Title', 'Annual Report', 0],
      ['NarrativeText', 'The company grew its revenue by ten percent during the year.', undefined],
      ['Title', 'Highlights', 1],
      ['ListItem', 'Revenue grew', 1],
      ['ListItem', 'Costs fell', 1],
      ['ListItem', 'Mostly rent', 2],
      ['CodeSnippet', 'const x = 1;\n  return x;', undefined],
    ]);
  });

  it('classifies text of divs and paragraphs like plain text', () => {
    expect(summary('<div>Quarterly Results</div><div>• A bulleted line of text</div><p>GALAXY GAMING, INC.</p><p>x</p><p>jane@example.com</p>')).toEqual([
      ['Title', 'Quarterly Results'],
      ['ListItem', 'A bulleted line of text'],
      ['UncategorizedText', 'GALAXY GAMING, INC.'],
      ['EmailAddress', 'jane@example.com'],
    ]);
  });

  it('splits a div at its child blocks and joins inline markup into one paragraph', () => {
    expect(
      summary(
        '<div>For a <b>moment, <i>nothing</i> happened.</b><p>Then, after a second or so, nothing continued to happen.</p>The dolphins had always believed that <em>they</em> were far more intelligent.</div>',
      ),
    ).toEqual([
      ['NarrativeText', 'For a moment, nothing happened.'],
      ['NarrativeText', 'Then, after a second or so, nothing continued to happen.'],
      ['NarrativeText', 'The dolphins had always believed that they were far more intelligent.'],
    ]);
  });

  it('records emphasis and links per text run', () => {
    const [el] = partitionHtmlString('<p>Read <b>the <i>full</i> report</b> on <a href="https://example.com/r">our website</a> today, please.</p>');
    expect(el!.metadata.emphasized_text_contents).toEqual(['the', 'full', 'report']);
    expect(el!.metadata.emphasized_text_tags).toEqual(['b', 'bi', 'b']);
    expect(el!.metadata.link_texts).toEqual(['our website']);
    expect(el!.metadata.link_urls).toEqual(['https://example.com/r']);
  });

  it('makes one Table per table with compact text_as_html, nested tables inside their cell', () => {
    const html = `<table>
      <thead><tr><th>Team</th><th>Cups</th></tr></thead>
      <tbody><tr><td>Blues &amp; Co</td><td>1</td></tr>
      <tr><td>Leafs</td><td><table><tr><td>13</td><td>wins</td></tr></table></td></tr>
      <tr><td>&nbsp;</td><td></td></tr></tbody></table>`;
    const out = partitionHtmlString(html);
    expect(out).toHaveLength(1);
    expect(out[0]!.type).toBe('Table');
    expect(out[0]!.text).toBe('Team Cups Blues & Co 1 Leafs 13 wins');
    expect(out[0]!.metadata.text_as_html).toBe(
      '<table><tr><td>Team</td><td>Cups</td></tr><tr><td>Blues &amp; Co</td><td>1</td></tr><tr><td>Leafs</td><td>13 wins</td></tr><tr><td/><td/></tr></table>',
    );
  });

  it('keeps the text of unknown inline tags and drops form controls and navigation', () => {
    expect(
      summary(
        '<nav><a href="/">Home</a></nav><p><font size="2">Styled text is still text here.</font><button>Click</button></p><form><div>The form body is read as well.</div></form>',
      ),
    ).toEqual([
      ['NarrativeText', 'Styled text is still text here.'],
      ['NarrativeText', 'The form body is read as well.'],
    ]);
  });

  it('reads <address> as an Address and prefers <main> as the content root', () => {
    expect(summary('<body><header>Site header text</header><main><address>12 Main Street, Springfield</address></main></body>')).toEqual([
      ['Address', '12 Main Street, Springfield'],
    ]);
  });

  it('turns <br> into a space between words', () => {
    expect(summary('<p>The first line<br>continues on the second line.</p>')).toEqual([['NarrativeText', 'The first line continues on the second line.']]);
  });
});

describe('HTML decoding', () => {
  it('uses the meta charset', () => {
    const bytes = iconv.encode('<html><head><meta charset="windows-1252"></head><body><p>Crème brûlée is served daily.</p></body></html>', 'windows-1252');
    expect(decodeHtml(bytes, 'utf-8')).toContain('Crème brûlée');
  });

  it('uses the encoding setting when the document declares none', async () => {
    const bytes = iconv.encode("<p>Le café coûte 3 € aujourd'hui.</p>", 'iso-8859-15');
    const out = await htmlPartitioner.partition(bytes, formatOptions({ encoding: 'iso-8859-15', filetype: 'text/html' }));
    expect(out[0]!.text).toBe("Le café coûte 3 € aujourd'hui.");
  });

  it('links body text to the preceding title through partitionFile', async () => {
    const out = await partitionFile(
      utf8('<h1>Main Title</h1><p>Some body text is written under the title.</p><h2>Sub Title</h2><p>More text is written under the sub title.</p>'),
      {
        filename: 'page.html',
      },
    );
    const [h1, p1, h2, p2] = out;
    expect(p1!.metadata.parent_id).toBe(h1!.element_id);
    expect(h2!.metadata.parent_id).toBe(h1!.element_id);
    expect(p2!.metadata.parent_id).toBe(h2!.element_id);
    expect(h1!.metadata.parent_id).toBeUndefined();
  });
});

describe.skipIf(!hasCorpus)('HTML corpus documents (skipped without /work/shared/corpus)', () => {
  it('example-10k-1p.html reaches token F1 >= 0.95 and type agreement >= 0.95', async () => {
    const expected = expectedElements('example-10k-1p.html');
    const got = await partitionFile(corpusBytes('example-10k-1p.html'), { filename: 'example-10k-1p.html' });
    const f1 = tokenF1(got, expected);
    const agreement = typeAgreement(got, expected);
    console.log(`example-10k-1p.html: F1 ${f1.toFixed(4)}, type agreement ${agreement.toFixed(4)} (${got.length}/${expected.length} elements)`);
    expect(f1).toBeGreaterThanOrEqual(0.95);
    expect(agreement).toBeGreaterThanOrEqual(0.95);
    expect(got.filter((e) => e.type === 'Table')).toHaveLength(4);
  });

  it('ideas-page.html comes out as one Table equal to the reference', async () => {
    const expected = expectedElements('ideas-page.html');
    const got = await partitionFile(corpusBytes('ideas-page.html'), { filename: 'ideas-page.html' });
    expect(got.map((e) => e.type)).toEqual(['Table']);
    expect(got[0]!.text).toBe(expected[0]!.text);
    expect(got[0]!.metadata.text_as_html).toBe(expected[0]!.metadata.text_as_html);
    console.log(`ideas-page.html: F1 ${tokenF1(got, expected).toFixed(4)}, type agreement ${typeAgreement(got, expected).toFixed(4)}`);
  });
});
