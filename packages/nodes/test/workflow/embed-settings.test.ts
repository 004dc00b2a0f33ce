import { settingKeysOf } from '@quarry/core';
import { describe, expect, it } from 'vitest';
import { nodesPlugin } from '../../src/index.js';
import { REMOTE_EMBED_SUBTYPES } from '../../src/embed/remote-backend.js';
import { bedrockEmbedNode, bedrockEmbedSettings } from '../../src/embed/bedrock.node.js';
import { voyageAIEmbedSettings } from '../../src/embed/voyageai.node.js';

describe('embedder settings', () => {
  it('need model_name and reject settings no embedder of the subtype takes', () => {
    expect(voyageAIEmbedSettings().parse({ model_name: 'voyage-3' })).toMatchObject({ model_name: 'voyage-3' });
    expect(voyageAIEmbedSettings().safeParse({}).success).toBe(false);
    expect(voyageAIEmbedSettings().safeParse({ model_name: 'voyage-3', dims: 1024 }).success).toBe(false);
    expect(voyageAIEmbedSettings().safeParse({ model_name: 'voyage-3', region: 'us-east-1' }).success).toBe(false);
    expect(bedrockEmbedSettings().parse({ model_name: 'cohere.embed-english-v3', region: 'eu-west-1' }).region).toBe('eu-west-1');
    expect(settingKeysOf(bedrockEmbedNode)).toContain('region');
  });

  it('come with seven embedders: the six remote subtypes and local', () => {
    const embedders = (nodesPlugin.nodes ?? []).filter((n) => n.type === 'embed').map((n) => n.subtype);
    expect(embedders.sort()).toEqual([...REMOTE_EMBED_SUBTYPES, 'local'].sort());
  });
});
