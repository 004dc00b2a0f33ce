import { chunkByCharacterSettings } from '@quarry/core';
import { chunkByCharacter } from './chunk-by-character.js';
import { chunkerNode } from './chunker-node.js';

/** `chunk_by_character`: the reference library's `basic` strategy. */
export const chunkByCharacterNode = chunkerNode('chunk_by_character', chunkByCharacterSettings, chunkByCharacter, 'fills chunks up to max_characters regardless of sections');
