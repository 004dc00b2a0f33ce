/** `@quarry/core/element`: the element model, its JSON form and its ids, without the engine. */
export {
  ELEMENT_TYPES,
  ELEMENT_TYPE_ALIASES,
  ELEMENT_TYPE_VOCABULARY,
  type CoordinateSystemName,
  type Coordinates,
  type DataSourceMetadata,
  type Element,
  type ElementLink,
  type ElementMetadata,
  type ElementType,
  type EnrichmentOrigin,
  type EntityItem,
  type EntityRelationship,
  type KeyValuePair,
} from './types.js';
export {
  canonicalElementType,
  elementFromJSON,
  elementToJSON,
  elementsFromJSON,
  isEmptyJsonValue,
  sparseMetadata,
  type ElementFromJSONOptions,
} from './json.js';
export { type ElementJsonSink, elementJsonPieces, writeElementJson, writeElementJsonToFile } from './json-pieces.js';
export { assignElementIds, hashElementId } from './ids.js';
export { randomUuid } from './random-uuid.js';
export { decodeOrigElements, encodeOrigElements, origElementsOf, stableStringify } from './orig-elements.js';
export { flatElementMetadata, type FlatMetadataValue } from './flat-metadata.js';
