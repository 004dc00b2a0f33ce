import { chunkByTitleSettings } from '@quarry/core';
import { chunkByTitle } from './chunk-by-title.js';
import { chunkerNode } from './chunker-node.js';

/** `chunk_by_title`: sections start at titles (and pages unless multipage_sections). */
export const chunkByTitleNode = chunkerNode('chunk_by_title', chunkByTitleSettings, chunkByTitle, 'keeps sections together; small sections are combined');
