import type { Element, ElementMetadata } from '@quarry/core';

/** The strategies a compiled consolidator handles (the dict-merging ones go the generic way). */
type CompiledStrategy = 'FIRST' | 'LIST_UNIQUE' | 'LIST_CONCATENATE' | 'STRING_CONCATENATE';

/** The value helpers of the generic consolidation, shared so both paths give the same values. */
export interface ConsolidationHelpers {
  copy(v: unknown): unknown;
  uniqueList(v: unknown): unknown[];
  appendUnique(out: unknown[], v: unknown): void;
  copiedList(v: unknown): unknown[];
  appendCopies(out: unknown[], v: unknown): void;
  strip(s: string): string;
}

/** Consolidates `elements[from, to)`. */
type Consolidator = (elements: readonly Element[], from: number, to: number) => ElementMetadata | undefined;

interface Plan {
  /** The consolidated fields (known, not dropped), in order. */
  readonly fields: readonly string[];
  /** `undefined` when this field order cannot be compiled (a dict-merging field). */
  readonly run: Consolidator | undefined;
  /** Full field orders (dropped fields included) known to match: checked first, exactly. */
  readonly orders: string[][];
}

/** Full field orders remembered per plan. */
const MAX_ORDERS = 4;

const MAX_PLANS = 64;

/**
 * Consolidation compiled per metadata field order. Elements of one document nearly always carry
 * the same fields in the same order; for such a chunk, a function written for that order reads
 * each field by name and builds the result as one object literal, where the generic loop looks
 * every field up by a computed key (about six times slower). Only the fields a chunk keeps count
 * towards the order: elements that differ in a dropped field (`parent_id` on some, say) share a
 * plan. The result equals the generic one: a compiled consolidator only runs when every element
 * has the plan's order of kept fields and the first element has a value for every one of them (so
 * fields appear in the plan's order), and it uses the generic path's value helpers. Anything else
 * returns `undefined`, and so does every call where the runtime forbids compiling code
 * (`--disallow-code-generation-from-strings`).
 */
export class ConsolidationPlanner {
  private last: Plan | undefined;
  private readonly plans = new Map<string, Plan>();
  private compiling = true;

  /**
   * @param strategyOf a field's strategy, `undefined` for a field chunks leave out.
   */
  constructor(
    private readonly strategyOf: (field: string) => string | undefined,
    private readonly helpers: ConsolidationHelpers,
  ) {}

  /**
   * The consolidated metadata of `elements[from, to)`, or `undefined` when the generic path must
   * run.
   */
  consolidate(elements: readonly Element[], from: number, to: number): ElementMetadata | undefined {
    if (!this.compiling || to <= from) return undefined;
    const first = (elements[from] as Element).metadata;
    let plan = this.last;
    if (plan === undefined || !this.matches(first, plan)) {
      plan = this.planFor(first);
      if (plan === undefined) return undefined;
      this.last = plan;
    }
    const { run } = plan;
    if (run === undefined) return undefined;
    for (let i = from + 1; i < to; i++) if (!this.matches((elements[i] as Element).metadata, plan)) return undefined;
    return run(elements, from, to);
  }

  // True when `metadata` has the plan's order of kept fields: exactly one of the full orders seen
  // before (the usual case), else by looking at each field's strategy (and then remembered).
  private matches(metadata: ElementMetadata, plan: Plan): boolean {
    const { orders } = plan;
    for (let o = 0; o < orders.length; o++) if (hasExactOrder(metadata, orders[o] as string[])) return true;
    if (!this.hasFieldOrder(metadata, plan.fields)) return false;
    if (orders.length < MAX_ORDERS) orders.push(Object.keys(metadata));
    return true;
  }

  // True when the fields of `metadata` a chunk keeps are exactly `fields`, in that order.
  private hasFieldOrder(metadata: ElementMetadata, fields: readonly string[]): boolean {
    let k = 0;
    for (const field in metadata) {
      if (!this.kept(field)) continue;
      if (fields[k] !== field) return false;
      k++;
    }
    return k === fields.length;
  }

  private kept(field: string): boolean {
    const strategy = this.strategyOf(field);
    return strategy !== undefined && strategy !== 'DROP';
  }

  private planFor(metadata: ElementMetadata): Plan | undefined {
    const fields: string[] = [];
    for (const field in metadata) if (this.kept(field)) fields.push(field);
    const key = fields.join('\u0000');
    const known = this.plans.get(key);
    if (known) return known;
    let run: Consolidator | undefined;
    try {
      run = this.compile(fields);
    } catch {
      // Code generation is disallowed here: the generic path serves every call from now on.
      this.compiling = false;
      return undefined;
    }
    if (this.plans.size >= MAX_PLANS) this.plans.clear();
    const plan: Plan = { fields, run, orders: [] };
    this.plans.set(key, plan);
    return plan;
  }

  // A consolidator for `fields` in this order, or undefined when one of them merges dicts.
  private compile(fields: readonly string[]): Consolidator | undefined {
    const kept: Array<[string, CompiledStrategy]> = [];
    for (const field of fields) {
      const strategy = this.strategyOf(field);
      if (strategy !== 'FIRST' && strategy !== 'LIST_UNIQUE' && strategy !== 'LIST_CONCATENATE' && strategy !== 'STRING_CONCATENATE') return undefined;
      kept.push([field, strategy]);
    }
    // Field names are embedded as JSON string literals, so any name is safe in the source.
    const name = (i: number): string => JSON.stringify((kept[i] as [string, CompiledStrategy])[0]);
    const lines: string[] = ['const m0 = els[from].metadata;', 'let v;'];
    kept.forEach(([, strategy], i) => {
      lines.push(`v = m0[${name(i)}]; if (v === undefined || v === null) return undefined;`);
      const init = { FIRST: 'h.copy(v)', LIST_UNIQUE: 'h.uniqueList(v)', LIST_CONCATENATE: 'h.copiedList(v)', STRING_CONCATENATE: 'h.strip(String(v))' }[strategy];
      lines.push(`let f${i} = ${init};`);
    });
    const more: string[] = [];
    kept.forEach(([, strategy], i) => {
      if (strategy === 'FIRST') return;
      const fold = { LIST_UNIQUE: `h.appendUnique(f${i}, v)`, LIST_CONCATENATE: `h.appendCopies(f${i}, v)`, STRING_CONCATENATE: `f${i} = f${i} + ' ' + h.strip(String(v))` }[strategy];
      more.push(`v = m[${name(i)}]; if (v !== undefined && v !== null) ${fold};`);
    });
    if (more.length > 0) lines.push('for (let i = from + 1; i < to; i++) {', 'const m = els[i].metadata;', ...more, '}');
    lines.push(`return { ${kept.map((_, i) => `${name(i)}: f${i}`).join(', ')} };`);
    const factory = new Function('h', `return function consolidateCompiled(els, from, to) {\n${lines.join('\n')}\n};`) as (h: ConsolidationHelpers) => Consolidator;
    return factory(this.helpers);
  }
}

// True when `metadata`'s own enumerable fields are exactly `order`, in that order.
function hasExactOrder(metadata: ElementMetadata, order: readonly string[]): boolean {
  let k = 0;
  for (const field in metadata) {
    if (order[k] !== field) return false;
    k++;
  }
  return k === order.length;
}
