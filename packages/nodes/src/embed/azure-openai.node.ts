import { lazySchema } from '@quarry/core';
import type { z } from 'zod';
import { optionalString, remoteEmbedNode, remoteEmbedSettings } from './remote-embed-node.js';

/** Settings of the `azure_openai` embedder: the common remote settings plus its own. */
export const azureOpenAIEmbedSettings = lazySchema(() =>
  remoteEmbedSettings('azure_openai', {
    api_version: optionalString('Azure OpenAI API version; default OPENAI_API_VERSION or 2024-10-21'),
    deployment: optionalString('Azure deployment name; default model_name'),
  }),
);
/** Parsed `azure_openai` embedder settings. */
export type AzureOpenAIEmbedSettings = z.output<ReturnType<typeof azureOpenAIEmbedSettings>>;

/** `azure_openai` embedder: embeds chunks with Azure OpenAI (text-embedding-3-small/large, ada-002). */
export const azureOpenAIEmbedNode = remoteEmbedNode(
  'azure_openai',
  'embeds chunks with Azure OpenAI (text-embedding-3-small/large, ada-002)',
  azureOpenAIEmbedSettings,
);
