/**
 * Embedder nodes: the remote subtypes of REFERENCE.md d4 plus `openai` and `local`, the model
 * registry behind SPEC.md node ordering rule 5, and the cross-document batching operator.
 */
export { EMBEDDING_MODELS, CHARS_PER_TOKEN, embeddingModelNames, findEmbeddingModel, maxCharactersFor, usesOpenAITokenizer } from './embedding-models.js';
export { LOCAL_DTYPES, REMOTE_EMBED_SUBTYPES, localEmbedSettings, remoteEmbedSettings, type LocalEmbedSettings, type RemoteEmbedSettings, type RemoteEmbedSubtype } from './embed-node-settings.js';
export { embedOperator, type BatchOptions, type EmbedBackend, type PreparedInput } from './batch-operator.js';
export { loadLocalModel, type LocalModel, type LocalModelInfo } from './local-model.js';
export { createRemoteBackend, defaultBatchLimits, type RemoteBackend } from './remote-backend.js';
export { EMBED_NODES, azureOpenAIEmbedNode, bedrockEmbedNode, ibmEmbedNode, localEmbedNode, openAIEmbedNode, togetherAIEmbedNode, voyageAIEmbedNode } from './embed-nodes.js';
