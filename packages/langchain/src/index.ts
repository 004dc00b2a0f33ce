/**
 * @quarry/langchain: quarry for LangChain.js. {@link QuarryLoader} loads files or a quarry
 * workflow's output as `Document`s with element metadata; {@link QuarryTextSplitter} chunks by title.
 */
export { QuarryLoader, type QuarryLoaderOptions } from './quarry-loader.js';
export { QuarryTextSplitter, type QuarryTextSplitterSettings } from './quarry-text-splitter.js';
