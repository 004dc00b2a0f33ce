import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseNerAnswer } from '../../src/prompter/ner.js';
import { NER_DEFAULT_PROMPT, NER_ENTITY_TYPES, renderNerPrompt } from '../../src/prompter/ner-prompt.js';
import { NER_PROMPT_KEYS, NER_PROMPT_MARKERS, nerNodes, nerPromptIssues } from '../../src/prompter/ner.node.js';
import type { LoopbackServer } from '../support/loopback-server.js';
import { chats, createNode, el, startChatServer } from './chat-wire.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.unstubAllEnvs();
});

const node = (subtype: string) => nerNodes.find((n) => n.subtype === subtype)!;

const ANSWER = {
  items: [
    { entity: 'Ada Lovelace', type: 'PERSON' },
    { entity: 'London', type: 'LOCATION' },
  ],
  relationships: [{ from: 'Ada Lovelace', relationship: 'born_in', to: 'London' }],
};

describe('the built-in NER prompt', () => {
  it('passes the override rules core checks, and lists every SPEC.md type', () => {
    expect(nerPromptIssues(NER_DEFAULT_PROMPT)).toEqual([]);
    for (const t of NER_ENTITY_TYPES) expect(NER_DEFAULT_PROMPT).toContain(t);
    for (const rel of [
      'works_for',
      'has_office_in',
      'died_on',
      'colleague_of',
      'owned_by',
      'held_in',
      'has_role',
      'mentions',
      'located_in',
      'referenced_in',
      'dated',
    ]) {
      expect(NER_DEFAULT_PROMPT).toContain(rel);
    }
    for (const m of NER_PROMPT_MARKERS) expect(NER_DEFAULT_PROMPT).toContain(m);
    for (const k of NER_PROMPT_KEYS) expect(NER_DEFAULT_PROMPT).toContain(`"${k}"`);
  });

  it('substitutes {{text}} literally, every time it appears', () => {
    expect(renderNerPrompt('a {{text}} b {{text}}', 'cost $1 $& more')).toBe('a cost $1 $& more b cost $1 $& more');
  });
});

describe('parseNerAnswer', () => {
  it('reads JSON wrapped in prose and fences, dropping malformed entries', () => {
    const answer = `Sure! Here you go:\n\`\`\`json\n${JSON.stringify({ items: [...ANSWER.items, { entity: 'x' }, 'junk'], relationships: [...ANSWER.relationships, { from: 'a', to: 'b' }] })}\n\`\`\``;
    expect(parseNerAnswer(answer, 'test')).toEqual(ANSWER);
  });
  it('treats missing lists as empty, and rejects an answer with no JSON object', () => {
    expect(parseNerAnswer('{"items": []}', 'test')).toEqual({ items: [], relationships: [] });
    expect(() => parseNerAnswer('no entities here', 'test')).toThrow(expect.objectContaining({ code: 'ENRICHMENT_RESPONSE_INVALID' }));
  });
});

describe('ner nodes', () => {
  it('registers anthropic_ner and openai_ner only', () => {
    expect(nerNodes.map((n) => n.subtype).sort()).toEqual(['anthropic_ner', 'openai_ner']);
  });

  for (const provider of ['anthropic', 'openai'] as const) {
    it(`${provider}: writes metadata.entities with the built-in prompt and records the origin`, async () => {
      server = await startChatServer(provider, (seen) =>
        seen.text.includes('[START OF TEXT]\nAda Lovelace was born in London.\n[END OF TEXT]') ? JSON.stringify(ANSWER) : '{}',
      );
      const model = provider === 'anthropic' ? 'claude-sonnet-4-20250514' : 'gpt-4o';
      // NER runs after any partitioner, Fast included: it reads text, not images.
      const fast = { name: 'P', type: 'partition' as const, subtype: 'unstructured_api', settings: { strategy: 'fast' } };
      const { run } = await createNode(node(`${provider}_ner`), { provider_type: provider, model }, [fast]);
      const out = await run([el('NarrativeText', 'Ada Lovelace was born in London.'), el('PageBreak', '')]);
      expect(out[0]!.metadata.entities).toEqual(ANSWER);
      expect(out[0]!.metadata.enrichment_origins).toEqual({ entities: [{ type: 'ner', provider, model }] });
      expect(out[1]!.metadata.entities).toBeUndefined();
      const sent = chats(provider, server);
      expect(sent).toHaveLength(1);
      if (provider === 'openai') expect(sent[0]!.jsonMode).toBe(true);
      else expect(sent[0]!.system).toMatch(/JSON/);
    });
  }

  it('sends prompt_interface_overrides.prompt.user with {{text}} replaced by the element text', async () => {
    const override =
      'Find only ORGANIZATION entities. Return JSON with "items" ({"entity", "type"}) and "relationships" ({"from", "relationship", "to"}).\n[START OF TEXT]\n{{text}}\n[END OF TEXT]';
    server = await startChatServer('openai', () => JSON.stringify({ items: [{ entity: 'Acme', type: 'ORGANIZATION' }], relationships: [] }));
    const { run } = await createNode(node('openai_ner'), {
      provider_type: 'openai',
      model: 'gpt-4o',
      prompt_interface_overrides: { prompt: { user: override } },
    });
    const out = await run([el('NarrativeText', 'Acme hired Bob.')]);
    expect(chats('openai', server)[0]!.text).toBe(override.replace('{{text}}', 'Acme hired Bob.'));
    expect(out[0]!.metadata.entities).toEqual({ items: [{ entity: 'Acme', type: 'ORGANIZATION' }], relationships: [] });
  });

  it('rejects an override without the text placeholder (core schema)', () => {
    const schema = node('anthropic_ner').settings as { safeParse(v: unknown): { success: boolean } };
    expect(
      schema.safeParse({
        provider_type: 'anthropic',
        model: 'claude-sonnet-4-20250514',
        prompt_interface_overrides: { prompt: { user: 'list entities as JSON items' } },
      }).success,
    ).toBe(false);
  });
});
