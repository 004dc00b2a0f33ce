import type JSZip from 'jszip';
import type { Logger } from '@quarry/core';
import { errorMessage, isQuarryError, quarryError } from '@quarry/core/errors';
import { silentLogger } from '@quarry/core/logger';
import { limitError, limitWarning, partitionLimits, type PartitionLimits } from '../../limits.js';
import { attr, childElements, parseXmlTree, type XmlNode } from './xml-tree.js';
import { DEFAULT_ZIP_LIMITS, memberUnreadable, openZip, ZipBudget, type PartsCap, type ZipLimits } from './zip-guard.js';

/** Options of {@link OoxmlPackage.open}. */
export interface OoxmlOpenOptions {
  /** How far the archive may inflate. */
  zipLimits?: ZipLimits;
  /** Nesting depth and XML part size; read from the environment when absent. */
  limits?: PartitionLimits;
  /** Receives the warning when a part nests past the depth limit (once per document). */
  logger?: Logger;
}

/** One relationship of an OOXML part (`_rels/*.rels`). */
export interface OoxmlRelationship {
  id: string;
  /** The relationship type URI's last segment, e.g. `hyperlink`, `header`, `slide`. */
  type: string;
  /** Resolved package path for internal targets; the raw target for external ones. */
  target: string;
  external: boolean;
}

/**
 * An opened OOXML package (DOCX, PPTX, XLSX are ZIP archives of XML parts). Every failure to read
 * the archive or a required part becomes `FILE_UNREADABLE` naming the document; parts are inflated
 * within {@link ZipLimits} (`ARCHIVE_TOO_LARGE` past them).
 */
export class OoxmlPackage {
  private readonly trees = new Map<string, XmlNode | undefined>();
  private warnedDepth = false;
  private readonly xmlCap: PartsCap;

  private constructor(
    private readonly zip: JSZip,
    /** The document's file name, for messages. */
    readonly filename: string,
    private readonly kind: string,
    private readonly budget: ZipBudget,
    private readonly limits: PartitionLimits,
    private readonly logger: Logger,
  ) {
    this.xmlCap = { maxBytes: limits.maxXmlBytes, used: 0, error: (used) => limitError('FILE_TOO_LARGE', 'maxXmlBytes', filename, used, limits) };
  }

  /** Opens `bytes` as a ZIP archive; `kind` (e.g. `DOCX`) is used in error messages. */
  static async open(bytes: Uint8Array, filename: string, kind: string, options: OoxmlOpenOptions = {}): Promise<OoxmlPackage> {
    const zip = await openZip(bytes, filename, kind);
    const budget = new ZipBudget(filename, kind, options.zipLimits ?? DEFAULT_ZIP_LIMITS);
    budget.checkEntries(zip);
    return new OoxmlPackage(zip, filename, kind, budget, options.limits ?? partitionLimits(), options.logger ?? silentLogger);
  }

  /** Inflates a part within the budget; a part that cannot be inflated is `FILE_UNREADABLE`. */
  private async inflate(file: JSZip.JSZipObject, cap?: PartsCap): Promise<Uint8Array> {
    try {
      return await this.budget.read(file, cap);
    } catch (e) {
      if (isQuarryError(e)) throw e;
      throw memberUnreadable(this.filename, this.kind, file.name, e);
    }
  }

  /** True when the package holds a part at `partPath` (no leading slash). */
  has(partPath: string): boolean {
    return this.zip.file(partPath) !== null;
  }

  /** The part's bytes, or `undefined` when absent. */
  async bytes(partPath: string): Promise<Uint8Array | undefined> {
    const f = this.zip.file(partPath);
    if (!f) return undefined;
    return this.inflate(f);
  }

  /**
   * The parsed XML of a part, or `undefined` when absent. Parsed once and cached. Once the parts
   * parsed pass `maxXmlBytes` together the document is `FILE_TOO_LARGE`, as soon as it inflates
   * past it (the trees, all cached, cost many times their XML); a part nesting deeper than
   * `maxNestingDepth` is flattened, with a warning.
   */
  async xml(partPath: string): Promise<XmlNode | undefined> {
    if (this.trees.has(partPath)) return this.trees.get(partPath);
    const text = await this.xmlText(partPath);
    let tree: XmlNode | undefined;
    if (text !== undefined) {
      try {
        const parsed = parseXmlTree(text, this.limits.maxNestingDepth);
        tree = parsed.root;
        if (parsed.flattened > 0 && !this.warnedDepth) {
          this.warnedDepth = true;
          this.logger.warn(limitWarning('maxNestingDepth', this.filename, `the structure (not the text) of part ${partPath} nested`, this.limits), {
            filename: this.filename,
            part: partPath,
            flattened: parsed.flattened,
          });
        }
      } catch (e) {
        throw this.unreadable(`part ${partPath} is not well-formed XML`, e);
      }
    }
    this.trees.set(partPath, tree);
    return tree;
  }

  /**
   * The text of an XML part, or `undefined` when absent, counted against `maxXmlBytes` as
   * {@link xml} counts it: for a part its format walks as a stream rather than a tree.
   */
  async xmlText(partPath: string): Promise<string | undefined> {
    const f = this.zip.file(partPath);
    return f ? new TextDecoder().decode(await this.inflate(f, this.xmlCap)) : undefined;
  }

  /** Like {@link xml} but a missing part is `FILE_UNREADABLE`. */
  async requireXml(partPath: string): Promise<XmlNode> {
    const tree = await this.xml(partPath);
    if (!tree) throw this.unreadable(`required part ${partPath} is missing`);
    return tree;
  }

  /** The relationships of `partPath`, keyed by id (empty when the part has none). */
  async relationships(partPath: string): Promise<Map<string, OoxmlRelationship>> {
    const slash = partPath.lastIndexOf('/');
    const dir = slash < 0 ? '' : partPath.slice(0, slash);
    const base = slash < 0 ? partPath : partPath.slice(slash + 1);
    const relsPath = `${dir ? `${dir}/` : ''}_rels/${base}.rels`;
    const tree = await this.xml(relsPath);
    const out = new Map<string, OoxmlRelationship>();
    if (!tree) return out;
    for (const rel of childElements(tree, 'Relationship')) {
      const id = attr(rel, 'Id');
      const target = attr(rel, 'Target');
      if (!id || target === undefined) continue;
      const external = attr(rel, 'TargetMode') === 'External';
      const type = (attr(rel, 'Type') ?? '').split('/').pop() ?? '';
      out.set(id, { id, type, external, target: external ? target : resolvePartPath(dir, target) });
    }
    return out;
  }

  /** A `FILE_UNREADABLE` error naming the document; a library's message (`cause`) stays in `details.reason`. */
  unreadable(reason: string, cause?: unknown): Error {
    return quarryError('FILE_UNREADABLE', `${this.filename}: not a readable ${this.kind} file: ${reason}`, {
      cause,
      details: { filename: this.filename, ...(cause === undefined ? {} : { reason: errorMessage(cause) }) },
    });
  }
}

/** Resolves a relationship target against the source part's directory (`word`, `ppt/slides`). */
export function resolvePartPath(dir: string, target: string): string {
  const parts = target.startsWith('/') ? [] : dir.split('/').filter(Boolean);
  for (const seg of target.replace(/^\//, '').split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return parts.join('/');
}

/** The main part named by the package's root relationships (`officeDocument`), if any. */
export async function mainPartPath(pkg: OoxmlPackage): Promise<string | undefined> {
  const rels = await pkg.relationships('');
  for (const r of rels.values()) if (r.type === 'officeDocument' && !r.external) return r.target;
  return undefined;
}
