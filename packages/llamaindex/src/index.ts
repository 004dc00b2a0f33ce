/**
 * @quarry/llamaindex: quarry for LlamaIndex.TS. {@link QuarryReader} reads files or a quarry
 * workflow's output as `Document`s with element metadata; {@link QuarryNodeParser} chunks by title.
 */
export { QuarryReader, type QuarryReaderOptions } from './quarry-reader.js';
export { QuarryNodeParser, type QuarryNodeParserSettings } from './quarry-node-parser.js';
