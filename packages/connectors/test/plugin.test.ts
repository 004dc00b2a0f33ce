import { isQuarryError, Registry } from '@quarry/core';
import { describe, expect, it } from 'vitest';
import * as connectors from '../src/index.js';
import { connectorsPlugin } from '../src/plugin.js';

describe('connectorsPlugin', () => {
  it('registers the local source and destination with the engine registry', () => {
    const registry = new Registry();
    registry.register(connectorsPlugin);
    expect(registry.pluginNames()).toEqual(['@quarry/connectors']);
    expect(registry.source('local')).toBe(connectors.localSource);
    expect(registry.destination('local')).toBe(connectors.localDestination);
  });

  it('is refused a second time, by name', () => {
    const registry = new Registry();
    registry.register(connectorsPlugin);
    let code: string | undefined;
    try {
      registry.register(connectorsPlugin);
    } catch (e) {
      if (isQuarryError(e)) code = e.code;
    }
    expect(code).toBe('DUPLICATE_PLUGIN');
  });

  it('is what the package entry point exports', () => {
    expect(connectors.connectorsPlugin).toBe(connectorsPlugin);
    expect(connectorsPlugin.engine).toBe('^0.1.0');
  });
});
