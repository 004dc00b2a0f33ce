import { describe, expect, it } from 'vitest';
import { EMBED_SUBTYPES, embedSettings } from '../../src/workflow/index.js';

describe('embedSettings', () => {
  it('takes exactly model_name', () => {
    expect(embedSettings.parse({ model_name: 'voyage-3' })).toEqual({ model_name: 'voyage-3' });
    expect(embedSettings.safeParse({}).success).toBe(false);
    expect(embedSettings.safeParse({ model_name: 'voyage-3', dims: 1024 }).success).toBe(false);
  });

  it('knows the five providers', () => {
    expect(EMBED_SUBTYPES).toEqual(['azure_openai', 'bedrock', 'ibm', 'togetherai', 'voyageai']);
  });
});
