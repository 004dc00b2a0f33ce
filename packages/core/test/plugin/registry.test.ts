import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineNode, definePlugin, ENGINE_VERSION, Registry, type QuarryError } from '../../src/index.js';

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
    r.register(definePlugin({ name: 'a', engine: `^${ENGINE_VERSION}`, nodes: [node('chunk_by_x'), node('chunk_by_y')], embeddingModels: [{ provider: 'p', model_name: 'm', dimensions: 3, max_tokens: 10, max_characters: 35 }] }));
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
});
