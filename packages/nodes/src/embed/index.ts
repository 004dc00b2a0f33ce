/**
 * Embedder nodes: the remote subtypes of the hosted Unstructured platform plus `openai` and
 * `local`, the model registry behind node ordering rule 5, and the cross-document batching operator.
 */
export { EMBEDDING_MODELS, CHARS_PER_TOKEN, embeddingModelNames, findEmbeddingModel, maxCharactersFor, usesOpenAITokenizer } from './embedding-models.js';
export {
  remoteEmbedCommonShape,
  REMOTE_EMBED_SUBTYPES,
  remoteEmbedNode,
  remoteEmbedSettings,
  type RemoteEmbedSettings,
  type RemoteEmbedSubtype,
} from './remote-embed-node.js';
export { embedOperator, type BatchOptions, type EmbedBackend, type PreparedInput } from './batch-operator.js';
export { LOCAL_DTYPES, loadLocalModel, type LocalDtype, type LocalModel, type LocalModelInfo, type LocalModelSettings } from './local-model.js';
export { createRemoteBackend, defaultBatchLimits, type RemoteBackend } from './remote-backend.js';
export { azureOpenAIEmbedNode, azureOpenAIEmbedSettings, type AzureOpenAIEmbedSettings } from './azure-openai.node.js';
export { bedrockEmbedNode, bedrockEmbedSettings, type BedrockEmbedSettings } from './bedrock.node.js';
export { ibmEmbedNode, ibmEmbedSettings, type IBMEmbedSettings } from './ibm.node.js';
export { openAIEmbedNode, openAIEmbedSettings, type OpenAIEmbedSettings } from './openai.node.js';
export { togetherAIEmbedNode, togetherAIEmbedSettings, type TogetherAIEmbedSettings } from './togetherai.node.js';
export { voyageAIEmbedNode, voyageAIEmbedSettings, type VoyageAIEmbedSettings } from './voyageai.node.js';
export { localEmbedNode, localEmbedSettings, type LocalEmbedSettings } from './local.node.js';
