// The official Unstructured TS SDK against a quarry server started with --similarity-embedder.
import { UnstructuredClient } from 'unstructured-client';
import { Strategy } from 'unstructured-client/sdk/models/shared';

export async function similarityChunks(serverUrl: string, apiKey: string, file: { name: string; content: Uint8Array }) {
  // serverUrl is the server's origin, e.g. http://127.0.0.1:8080 (the SDK adds /general/v0/general).
  const client = new UnstructuredClient({ serverURL: serverUrl, security: { apiKeyAuth: apiKey } });
  const chunks = await client.general.partition({
    partitionParameters: {
      files: { content: file.content, fileName: file.name },
      strategy: Strategy.Fast,
      chunkingStrategy: 'by_similarity',
      similarityThreshold: 0.6,
      maxCharacters: 1000,
    },
  });
  // An array of chunks (the SDK types it as `string | object[]`: a string only for text/csv).
  return chunks as Array<{ type: string; element_id: string; text: string; metadata: Record<string, unknown> }>;
}
