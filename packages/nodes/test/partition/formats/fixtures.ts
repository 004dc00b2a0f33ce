import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Element } from '@quarry/core';
import { partitionFile, type PartitionFileRequest } from '../../../src/partition/partition-file.js';

/** The committed format samples (see `test/fixtures/formats/README.md` for their sources). */
export const fixturesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/formats');

/** Bytes of a committed sample. */
export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(fixturesDir, name)));
}

/** A sample partitioned as a user would: type detected from its bytes and name, fast strategy. */
export function partitionFixture(name: string, request: Partial<PartitionFileRequest> = {}): Promise<Element[]> {
  return partitionFile(fixture(name), { filename: name, strategy: 'fast', ...request });
}

/** `[type, text]` of each element, for comparing a whole document at a glance. */
export const typesAndTexts = (elements: readonly Element[]): Array<[string, string]> => elements.map((e) => [e.type, e.text]);
