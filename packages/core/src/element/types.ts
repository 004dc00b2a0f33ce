/**
 * The element model: the unit of content quarry produces, JSON-compatible with the element JSON of
 * the leading open-source partitioning library (`{type, element_id, text, metadata, embeddings?}`).
 */

/** Every element `type` string quarry emits (`unstructured`'s categories). */
export const ELEMENT_TYPES = [
  'Title',
  'NarrativeText',
  'UncategorizedText',
  'ListItem',
  'Address',
  'EmailAddress',
  'FigureCaption',
  'Formula',
  'Form',
  'Header',
  'Footer',
  'Image',
  'PageBreak',
  'Table',
  'TableChunk',
  'CompositeElement',
  'CodeSnippet',
  'PageNumber',
  'FormKeysValues',
  'DocumentData',
  'CheckBox',
] as const;

/** An element category. */
export type ElementType = (typeof ELEMENT_TYPES)[number];

/**
 * Type names accepted on input and mapped onto a canonical {@link ElementType}
 * (`unstructured`'s `TYPE_TO_TEXT_ELEMENT_MAP`).
 */
export const ELEMENT_TYPE_ALIASES: Readonly<Record<string, ElementType>> = {
  Text: 'NarrativeText',
  Paragraph: 'NarrativeText',
  Abstract: 'NarrativeText',
  Threading: 'NarrativeText',
  Value: 'NarrativeText',
  Link: 'NarrativeText',
  BulletedText: 'ListItem',
  'List-item': 'ListItem',
  'Section-header': 'Title',
  Headline: 'Title',
  Subheadline: 'Title',
  'Field-Name': 'Title',
  'Page-header': 'Header',
  'Page-footer': 'Footer',
  Footnote: 'Footer',
  Caption: 'FigureCaption',
  Figure: 'Image',
  Picture: 'Image',
};

/**
 * `unstructured`'s wider `ElementType` vocabulary, used by settings such as
 * `extract_image_block_types` (the Unstructured workflow API lists exactly these).
 */
export const ELEMENT_TYPE_VOCABULARY = [
  'Abstract',
  'BulletedText',
  'Caption',
  'CodeSnippet',
  'CompositeElement',
  'Figure',
  'FigureCaption',
  'Form',
  'FormKeysValues',
  'Formula',
  'Header',
  'Image',
  'List',
  'List-item',
  'ListItem',
  'NarrativeText',
  'Paragraph',
  'Picture',
  'Table',
  'Text',
  'Threading',
  'Title',
  'UncategorizedText',
] as const;

/** Coordinate systems used in `metadata.coordinates.system`. */
export type CoordinateSystemName = 'PixelSpace' | 'PointSpace' | 'RelativeCoordinateSystem' | (string & {});

/** Position of an element on its page. */
export interface Coordinates {
  /** Corner points, clockwise from top-left: `[[x, y], ...]`. */
  points: Array<[number, number]>;
  system: CoordinateSystemName;
  layout_width: number;
  layout_height: number;
}

/** Where a document came from. */
export interface DataSourceMetadata {
  url?: string;
  version?: string;
  record_locator?: Record<string, unknown>;
  date_created?: string;
  date_modified?: string;
  date_processed?: string;
  permissions_data?: Array<Record<string, unknown>>;
}

/** One named entity found by NER. */
export interface EntityItem {
  entity: string;
  type: string;
}

/** A relationship between two entities found by NER. */
export interface EntityRelationship {
  from: string;
  relationship: string;
  to: string;
}

/** Provenance of one enrichment. */
export interface EnrichmentOrigin {
  type: string;
  provider?: string;
  model?: string;
}

/** A key/value pair of a form. */
export interface KeyValuePair {
  key: string;
  value: string;
}

/** A link inside an element's text (deprecated upstream, kept for JSON compatibility). */
export interface ElementLink {
  text: string;
  url: string;
  start_index: number;
}

/**
 * Every metadata field of `unstructured`, all optional, snake_case as in its JSON.
 * Unknown (ad-hoc) fields are kept on round trips.
 */
export interface ElementMetadata {
  attached_to_filename?: string;
  bcc_recipient?: string[];
  category_depth?: number;
  cc_recipient?: string[];
  chunk_index?: number;
  /**
   * quarry's addition: on a Table continued from the page before (a table split by a page break),
   * the `element_id` of the Table it continues. Set when the earlier part is in the same output.
   */
  continues_table_id?: string;
  coordinates?: Coordinates;
  data_source?: DataSourceMetadata;
  detection_class_prob?: number;
  detection_origin?: string;
  email_message_id?: string;
  emphasized_text_contents?: string[];
  emphasized_text_tags?: string[];
  enrichment_origins?: Record<string, EnrichmentOrigin[]>;
  entities?: { items: EntityItem[]; relationships: EntityRelationship[] };
  file_directory?: string;
  filename?: string;
  filetype?: string;
  header_footer_type?: string;
  image_base64?: string;
  image_mime_type?: string;
  image_path?: string;
  image_url?: string;
  is_continuation?: boolean;
  is_extracted?: boolean | string;
  key_value_pairs?: KeyValuePair[];
  languages?: string[];
  last_modified?: string;
  link_start_indexes?: number[];
  link_texts?: string[];
  link_urls?: string[];
  links?: ElementLink[];
  num_carried_over_header_rows?: number;
  /** Source elements of a chunk; JSON-native, or `unstructured`'s zlib+base64 string form. */
  orig_elements?: Element[] | string;
  page_name?: string;
  page_number?: number;
  parent_id?: string;
  routing?: string;
  routing_score?: number;
  segment_end_seconds?: number;
  segment_start_seconds?: number;
  sent_from?: string[];
  sent_to?: string[];
  signature?: string;
  subject?: string;
  table_as_cells?: Record<string, unknown>;
  table_extraction_method?: string;
  table_id?: string;
  text_as_html?: string;
  url?: string;
  [extra: string]: unknown;
}

/** One element of a document. */
export interface Element {
  element_id: string;
  type: ElementType;
  text: string;
  metadata: ElementMetadata;
  embeddings?: number[];
  /** CheckBox only. */
  checked?: boolean;
}
