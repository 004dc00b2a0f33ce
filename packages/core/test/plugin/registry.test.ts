import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readFileSync } from 'node:fs';
import { createEngine, CORE_ERROR_CODES, defineNode, definePlugin, ENGINE_VERSION, Registry, type QuarryError } from '../../src/index.js';
import { rtfPlugin, unbalancedGroup } from './readme-error-codes-example.js';

const node = (subtype: string) => defineNode({ type: 'chunk', subtype, settings: z.object({}), create: () => ({ process: (f) => f.elements }) });

function codeOf(fn: () => void): string | undefined {
  try {
    fn();
  } catch (e) {
    return (e as QuarryError).code;
  }
  return undefined;
}

describe('Registry', () => {
  it('registers nodes, connectors and models and lists them', () => {
    const r = new Registry();
    r.register(
      definePlugin({
        name: 'a',
        engine: `^${ENGINE_VERSION}`,
        nodes: [node('chunk_by_x'), node('chunk_by_y')],
        embeddingModels: [{ provider: 'p', model_name: 'm', dimensions: 3, max_tokens: 10, max_characters: 35 }],
      }),
    );
    expect(r.nodeSubtypes('chunk')).toEqual(['chunk_by_x', 'chunk_by_y']);
    expect(r.embeddingModel('p', 'm')?.dimensions).toBe(3);
    expect(r.pluginNames()).toEqual(['a']);
  });

  it('rejects duplicates, bad metadata and incompatible engines with codes', () => {
    const r = new Registry();
    r.register(definePlugin({ name: 'a', engine: '*', nodes: [node('s')] }));
    expect(codeOf(() => r.register(definePlugin({ name: 'a', engine: '*' })))).toBe('DUPLICATE_PLUGIN');
    expect(codeOf(() => r.register(definePlugin({ name: 'b', engine: '*', nodes: [node('s')] })))).toBe('DUPLICATE_NODE');
    expect(codeOf(() => r.register(definePlugin({ name: 'c', engine: '>=99' })))).toBe('INCOMPATIBLE_PLUGIN');
    expect(codeOf(() => r.register(definePlugin({ name: 'd', engine: 'not a range' })))).toBe('INVALID_PLUGIN');
    expect(codeOf(() => r.register({ name: 'e', engine: '*', nodes: [{ ...node('z'), type: 'weird' as 'chunk' }] }))).toBe('INVALID_PLUGIN');
    const dest = { type: 'x', config: z.object({}), create: () => ({ write: async () => {} }) };
    expect(codeOf(() => r.register(definePlugin({ name: 'f', engine: '*', destinations: [dest, dest] })))).toBe('DUPLICATE_CONNECTOR');
    // A failed registration registers nothing.
    expect(r.pluginNames()).toEqual(['a']);
  });

  it('names what is registered when a subtype is unknown', () => {
    const r = new Registry();
    r.register(definePlugin({ name: 'a', engine: '*', nodes: [node('chunk_by_title')] }));
    expect(() => r.node('chunk', 'chunk_by_word')).toThrowError('no node chunk/chunk_by_word is registered; registered chunk subtypes: chunk_by_title');
    expect(() => r.source('s3')).toThrowError(/no source connector "s3" is registered/);
  });

  it("lists core's error codes, then each plugin's, with their owners", () => {
    const r = new Registry();
    expect([...r.errorCodes().keys()]).toEqual(Object.keys(CORE_ERROR_CODES));
    expect(r.errorCodes().get('JOB_ABORTED')).toEqual({ description: CORE_ERROR_CODES.JOB_ABORTED, owner: '@quarry/core' });
    r.register(definePlugin({ name: 'rtf', engine: '*', errorCodes: { RTF_GROUP_UNBALANCED: 'an RTF group is never closed', AA_FIRST: 'sorts first' } }));
    expect(r.errorCodes().get('RTF_GROUP_UNBALANCED')).toEqual({ description: 'an RTF group is never closed', owner: 'rtf' });
    expect([...r.errorCodes().keys()][0]).toBe('AA_FIRST');
  });

  it('refuses malformed and already declared error codes, registering nothing', () => {
    const r = new Registry();
    r.register(definePlugin({ name: 'a', engine: '*', errorCodes: { A_FAILED: 'a failed' } }));
    const attempt = (errorCodes: Record<string, string>, name = 'b'): QuarryError | undefined => {
      try {
        r.register(definePlugin({ name, engine: '*', nodes: [node(`n_${name}`)], errorCodes }));
      } catch (e) {
        return e as QuarryError;
      }
      return undefined;
    };
    expect(attempt({ 'b-failed': 'b failed' })?.code).toBe('INVALID_PLUGIN');
    expect(attempt({ B_FAILED: '' })?.message).toBe('plugin "b": error code B_FAILED needs a one-line description');
    expect(attempt({ B_FAILED: 'two\nlines' })?.code).toBe('INVALID_PLUGIN');
    expect(attempt({ B_FAILED: 'b failed', A_FAILED: 'again' })?.message).toBe('plugin "b": error code A_FAILED is already declared by plugin "a"');
    const core = attempt({ JOB_ABORTED: 'mine now' });
    expect(core?.code).toBe('DUPLICATE_ERROR_CODE');
    expect(core?.message).toBe('plugin "b": error code JOB_ABORTED is already declared by core');
    expect(core?.details).toEqual({ code: 'JOB_ABORTED', owner: '@quarry/core' });
    expect(r.pluginNames()).toEqual(['a']);
    expect(r.findNode('chunk', 'n_b')).toBeUndefined();
    expect(r.errorCodes().has('B_FAILED')).toBe(false);
  });

  it("runs the README's error code example verbatim", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(readFileSync(new URL('./readme-error-codes-example.ts', import.meta.url), 'utf8'));
    const engine = createEngine().use(rtfPlugin);
    expect(engine.registry.errorCodes().get('RTF_GROUP_UNBALANCED')).toEqual({ description: 'an RTF group is never closed', owner: 'quarry-rtf' });
    const e = unbalancedGroup('memo.rtf', 812);
    expect(e.toJSON()).toEqual({
      code: 'RTF_GROUP_UNBALANCED',
      message: 'memo.rtf: the RTF group opened at byte 812 is never closed',
      details: { filename: 'memo.rtf', offset: 812 },
    });
  });
});
