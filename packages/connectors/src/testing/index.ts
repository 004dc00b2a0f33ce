/**
 * Conformance suites for connector authors (`@quarry/connectors/testing`): the behaviour every
 * source and destination shares, as vitest suites. Call one from a test file, then add the
 * connector's own tests. Needs `vitest` installed (a peer dependency of this entry only).
 *
 * @example
 * ```ts
 * import { testDestinationConformance } from '@quarry/connectors/testing';
 * testDestinationConformance('my-index', makeDestination, readBack);
 * ```
 */
export {
  conformanceDocument,
  conformanceElements,
  testDestinationConformance,
  type DestinationConformanceOptions,
  type DestinationUnderTest,
  type ReadBack,
} from './destination-conformance.js';
export { SOURCE_FIXTURES, testSourceConformance, type SourceFixture, type SourceUnderTest } from './source-conformance.js';
