import type { ValidationDetail } from '../http-errors.js';

type Kind = 'bool' | 'int' | 'number' | 'string' | 'list';

/**
 * The form fields of `POST /general/v0/general` (the Unstructured API's partition endpoint) and their kinds. Fields the
 * hosted API's clients send for client-side PDF splitting are accepted and have no effect here.
 */
export const LEGACY_FIELDS = {
  strategy: 'string',
  languages: 'list',
  ocr_languages: 'list',
  encoding: 'string',
  coordinates: 'bool',
  include_page_breaks: 'bool',
  pdf_infer_table_structure: 'bool',
  skip_infer_table_types: 'list',
  extract_image_block_types: 'list',
  xml_keep_tags: 'bool',
  hi_res_model_name: 'string',
  content_type: 'string',
  gz_uncompressed_content_type: 'string',
  output_format: 'string',
  unique_element_ids: 'bool',
  starting_page_number: 'int',
  include_slide_notes: 'bool',
  chunking_strategy: 'string',
  combine_under_n_chars: 'int',
  max_characters: 'int',
  multipage_sections: 'bool',
  new_after_n_chars: 'int',
  overlap: 'int',
  overlap_all: 'bool',
  include_orig_elements: 'bool',
  similarity_threshold: 'number',
  do_not_break_similarity_on_footer_header: 'bool',
  vlm_model: 'string',
  vlm_model_provider: 'string',
  split_pdf_page: 'bool',
  split_pdf_allow_failed: 'bool',
  split_pdf_concurrency_level: 'int',
  split_pdf_page_range: 'list',
} as const satisfies Record<string, Kind>;

type Fields = typeof LEGACY_FIELDS;
type ValueOf<K extends Kind> = K extends 'bool' ? boolean : K extends 'int' | 'number' ? number : K extends 'list' ? string[] : string;

/** The parsed form: each field given, in its kind. */
export type LegacyForm = { -readonly [K in keyof Fields]?: ValueOf<Fields[K]> };

const TRUE = new Set(['true', '1', 'yes', 'on', 't', 'y']);
const FALSE = new Set(['false', '0', 'no', 'off', 'f', 'n']);

/**
 * A list field: repeated parts, or one part holding a JSON array (`["eng","deu"]`) or a `,` or `+`
 * separated list (the official TS SDK sends arrays as `eng,deu`; `eng+deu` is Tesseract's form).
 */
function listValue(values: readonly string[]): string[] {
  if (values.length === 1) {
    const v = values[0]!.trim();
    if (v.startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(v);
        if (Array.isArray(parsed)) return parsed.map(String);
      } catch {
        // Not JSON: read as a separated list below.
      }
    }
    return v
      .split(/[,+]/)
      .map((x) => x.trim())
      .filter((x) => x !== '');
  }
  return values.filter((v) => v !== '');
}

/** Parses the form fields, pydantic style: every field that does not parse is listed (422). Unknown fields are ignored. */
export function parseLegacyForm(fields: ReadonlyMap<string, readonly string[]>): { form: LegacyForm; problems: ValidationDetail[] } {
  const form: Record<string, unknown> = {};
  const problems: ValidationDetail[] = [];
  for (const [name, kind] of Object.entries(LEGACY_FIELDS) as Array<[keyof Fields, Kind]>) {
    // `name[]` is how the official SDKs send some lists (one part per item).
    const values = fields.get(name) ?? (kind === 'list' ? fields.get(`${name}[]`) : undefined);
    if (!values?.length) continue;
    const first = values[0]!.trim();
    switch (kind) {
      case 'list':
        form[name] = listValue(values);
        break;
      case 'string':
        if (first !== '') form[name] = first;
        break;
      case 'bool':
        if (TRUE.has(first.toLowerCase())) form[name] = true;
        else if (FALSE.has(first.toLowerCase())) form[name] = false;
        else problems.push({ loc: ['body', name], msg: 'Input should be a valid boolean, unable to interpret input', type: 'bool_parsing' });
        break;
      case 'int':
        if (/^[-+]?\d+$/.test(first)) form[name] = Number(first);
        else problems.push({ loc: ['body', name], msg: 'Input should be a valid integer, unable to parse string as an integer', type: 'int_parsing' });
        break;
      case 'number':
        if (first !== '' && Number.isFinite(Number(first))) form[name] = Number(first);
        else problems.push({ loc: ['body', name], msg: 'Input should be a valid number, unable to parse string as a number', type: 'float_parsing' });
        break;
    }
  }
  return { form: form as LegacyForm, problems };
}
