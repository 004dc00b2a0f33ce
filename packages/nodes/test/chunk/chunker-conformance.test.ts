import { testChunkerConformance } from '@quarry/nodes/testing';
import { chunkByCharacter, chunkByPage, chunkByTitle } from '../../src/chunk/index.js';

// The built-in chunkers run the suite offered to plugin authors.
testChunkerConformance('chunk_by_character', (elements, options) => chunkByCharacter(elements, options));
testChunkerConformance('chunk_by_title', (elements, options) => chunkByTitle(elements, options));
testChunkerConformance('chunk_by_page', (elements, options) => chunkByPage(elements, options));
