import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEngine, type Element, type Flow, type SourceDocument } from '@quarry/core';
import { nodesPlugin } from '../../../src/plugin.js';
import { startLoopbackServer, type LoopbackServer, type RecordedRequest } from '../../support/loopback-server.js';
import { makePdf, textLines } from '../formats/pdf/fixture.js';
import { answeringWire, requestImages, wireEnv } from './vlm-wire.js';

const KEY = 'sk-node-vlm-secret-0123456789abcdef';
const PDF = makePdf([
  { texts: textLines(['Field notes', 'The station recorded clear skies and light wind all week.']) },
  { images: [{ x: 50, y: 50, width: 500, height: 690 }] },
]);
const answer = (req: RecordedRequest): string =>
  /Page 1/.test(req.body)
    ? '<h1 data-category="Title">Field notes</h1><p data-category="NarrativeText">Clear skies all week.</p>'
    : '<p data-category="NarrativeText">A photograph of the station.</p>';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.unstubAllEnvs();
});

/** Points the SDK at the loopback server through the environment, until the test ends. */
function stubEnv(vars: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(vars)) vi.stubEnv(name, value);
}

function source(bytes: Uint8Array, filename: string): { list(): AsyncIterable<SourceDocument> } {
  return {
    async *list() {
      yield { record_id: filename, filename, data_source: {}, read: async () => bytes };
    },
  };
}

describe('partition/vlm through the engine', () => {
  it('VLM: every page goes to the model named in the workflow, with provider_api_key from the settings', async () => {
    server = await startLoopbackServer(answeringWire('openai', answer));
    const env = wireEnv('openai', server.url, 'not-this-key');
    stubEnv({ OPENAI_BASE_URL: env.OPENAI_BASE_URL, OPENAI_API_KEY: undefined });
    const engine = createEngine().use(nodesPlugin);
    const plan = engine.build({
      name: 'vlm',
      workflow_type: 'custom',
      workflow_nodes: [
        {
          name: 'VLM',
          type: 'partition',
          subtype: 'vlm',
          settings: { provider: 'provider_c', model: 'gpt-4o', provider_api_key: KEY, is_dynamic: false, allow_fast: false },
        },
      ],
    });
    const out = new Map<string, Element[]>();
    const summary = await engine.run(plan, {
      source: source(PDF, 'notes.pdf'),
      destination: {
        async write(f: Flow) {
          out.set(f.document.record_id, f.elements);
        },
      },
    }).done;
    expect(summary.failures).toEqual([]);
    expect(out.get('notes.pdf')!.map((e) => [e.type, e.text, e.metadata.page_number, e.metadata.routing])).toEqual([
      ['Title', 'Field notes', 1, 'vlm'],
      ['NarrativeText', 'Clear skies all week.', 1, 'vlm'],
      ['NarrativeText', 'A photograph of the station.', 2, 'vlm'],
    ]);
    expect(server.requests).toHaveLength(2);
    for (const req of server.requests) {
      expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(requestImages('openai', req)).toHaveLength(1);
    }
  });

  it('Auto: the text page is read by Fast and only the image page reaches the model', async () => {
    server = await startLoopbackServer(answeringWire('openai', answer));
    stubEnv(wireEnv('openai', server.url, KEY));
    const engine = createEngine().use(nodesPlugin);
    const plan = engine.build({
      name: 'auto',
      workflow_type: 'custom',
      workflow_nodes: [
        { name: 'Auto', type: 'partition', subtype: 'vlm', settings: { provider: 'openai', model: 'gpt-4o', is_dynamic: true, allow_fast: true } },
      ],
    });
    const out = new Map<string, Element[]>();
    const summary = await engine.run(plan, {
      source: source(PDF, 'notes.pdf'),
      destination: {
        async write(f: Flow) {
          out.set(f.document.record_id, f.elements);
        },
      },
    }).done;
    expect(summary.failures).toEqual([]);
    const els = out.get('notes.pdf')!;
    expect(els.filter((e) => e.metadata.page_number === 1).every((e) => e.metadata.routing === 'fast')).toBe(true);
    expect(els.filter((e) => e.metadata.page_number === 2).map((e) => [e.text, e.metadata.routing])).toEqual([['A photograph of the station.', 'vlm']]);
    expect(server.requests).toHaveLength(1);
  });

  it('VLM: an image file is sent as it is and read as page 1', async () => {
    const { createCanvas } = await import('@napi-rs/canvas');
    const canvas = createCanvas(200, 100);
    const g = canvas.getContext('2d');
    g.fillStyle = '#fff';
    g.fillRect(0, 0, 200, 100);
    const png = new Uint8Array(canvas.toBuffer('image/png'));
    server = await startLoopbackServer(answeringWire('openai', () => '<p data-category="NarrativeText">A blank card.</p>'));
    stubEnv(wireEnv('openai', server.url, KEY));
    const engine = createEngine().use(nodesPlugin);
    const plan = engine.build({
      name: 'vlm-image',
      workflow_type: 'custom',
      workflow_nodes: [
        { name: 'VLM', type: 'partition', subtype: 'vlm', settings: { provider: 'openai', model: 'gpt-4o', is_dynamic: false, allow_fast: false } },
      ],
    });
    const out = new Map<string, Element[]>();
    const summary = await engine.run(plan, {
      source: source(png, 'card.png'),
      destination: {
        async write(f: Flow) {
          out.set(f.document.record_id, f.elements);
        },
      },
    }).done;
    expect(summary.failures).toEqual([]);
    expect(out.get('card.png')!.map((e) => [e.type, e.text, e.metadata.page_number, e.metadata.filetype])).toEqual([
      ['NarrativeText', 'A blank card.', 1, 'image/png'],
    ]);
    const sent = requestImages('openai', server.requests[0]!);
    expect(sent).toHaveLength(1);
    expect(Buffer.from(sent[0]!, 'base64').equals(Buffer.from(png))).toBe(true);
  });
});
