import { definePlugin, ENGINE_VERSION } from '@quarry/core';
import { chunkByCharacterNode } from './chunk/chunk-by-character.node.js';
import { chunkByPageNode } from './chunk/chunk-by-page.node.js';
import { chunkBySimilarityNode } from './chunk/chunk-by-similarity.node.js';
import { chunkByTitleNode } from './chunk/chunk-by-title.node.js';
import { azureOpenAIEmbedNode } from './embed/azure-openai.node.js';
import { bedrockEmbedNode } from './embed/bedrock.node.js';
import { EMBEDDING_MODELS } from './embed/embedding-models.js';
import { ibmEmbedNode } from './embed/ibm.node.js';
import { localEmbedNode } from './embed/local.node.js';
import { openAIEmbedNode } from './embed/openai.node.js';
import { togetherAIEmbedNode } from './embed/togetherai.node.js';
import { voyageAIEmbedNode } from './embed/voyageai.node.js';
import { NODES_ERROR_CODES } from './errors.js';
import { BUILTIN_FORMATS } from './partition/formats/index.js';
import { unstructuredApiPartitionNode } from './partition/unstructured-api.node.js';
import { vlmPartitionNode } from './partition/vlm.node.js';
import { NODES_PROBLEM_CODES } from './problems.js';
import { imageDescriptionNodes } from './prompter/image-description.node.js';
import { nerNodes } from './prompter/ner.node.js';
import { ocrNodes } from './prompter/ocr.node.js';
import { table2htmlNodes } from './prompter/table2html.node.js';
import { tableDescriptionNodes } from './prompter/table-description.node.js';
import { twopassTable2htmlNode } from './prompter/twopass-table2html.node.js';
import { BUILTIN_TEMPLATES } from './templates.js';

/**
 * Every built-in node of @quarry/nodes (partitioners, prompters for enrichment, chunkers and
 * embedders), the document formats the partitioners read, the error codes they throw, the
 * problem codes their rules report and the workflow templates made of them: the one list of
 * built-in nodes. Each node's file
 * (`<kind>/<subtype>.node.ts`) holds its settings schema, its rules and its code.
 *
 * @example
 * ```ts
 * const engine = createEngine().use(nodesPlugin);
 * ```
 */
export const nodesPlugin = definePlugin({
  name: '@quarry/nodes',
  engine: `^${ENGINE_VERSION}`,
  nodes: [
    unstructuredApiPartitionNode,
    vlmPartitionNode,
    ...imageDescriptionNodes,
    ...tableDescriptionNodes,
    ...table2htmlNodes,
    twopassTable2htmlNode,
    ...nerNodes,
    ...ocrNodes,
    chunkByCharacterNode,
    chunkByTitleNode,
    chunkByPageNode,
    chunkBySimilarityNode,
    azureOpenAIEmbedNode,
    bedrockEmbedNode,
    ibmEmbedNode,
    openAIEmbedNode,
    togetherAIEmbedNode,
    voyageAIEmbedNode,
    localEmbedNode,
  ],
  embeddingModels: [...EMBEDDING_MODELS],
  formats: [...BUILTIN_FORMATS],
  errorCodes: NODES_ERROR_CODES,
  problemCodes: NODES_PROBLEM_CODES,
  templates: BUILTIN_TEMPLATES,
});
