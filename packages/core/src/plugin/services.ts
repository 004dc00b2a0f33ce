/**
 * A typed key of a run's services: the value stored under it has type `T`. Keys compare by name, so
 * two copies of a plugin (its sources and its build, say) find each other's services.
 */
export interface ServiceKey<T> {
  readonly name: string;
  /** Carries `T` for the type checker only; never set. */
  readonly __type?: T;
}

/** Makes a typed service key; name it after its package (`quarry.partition.pool`). */
export function serviceKey<T>(name: string): ServiceKey<T> {
  return Object.freeze({ name });
}

/**
 * The services of a run, shared by its nodes (a partition process pool, provider clients, host
 * configuration): typed by their {@link ServiceKey}s instead of a string-keyed map of unknowns.
 *
 * @example
 * ```ts
 * const POOL = serviceKey<PartitionPool>('quarry.partition.pool');
 * const services = new Services().set(POOL, pool);
 * services.get(POOL); // PartitionPool | undefined
 * ```
 */
export class Services {
  private readonly values = new Map<string, unknown>();

  /** The value under `key`, or undefined. */
  get<T>(key: ServiceKey<T>): T | undefined {
    return this.values.get(key.name) as T | undefined;
  }

  /** Stores `value` under `key` (replacing what was there); returns this, to chain. */
  set<T>(key: ServiceKey<T>, value: T): this {
    this.values.set(key.name, value);
    return this;
  }

  /** Whether a value is stored under `key`. */
  has(key: ServiceKey<unknown>): boolean {
    return this.values.has(key.name);
  }

  /** A copy holding the same values, to add to without changing this one. */
  clone(): Services {
    const copy = new Services();
    for (const [name, value] of this.values) copy.values.set(name, value);
    return copy;
  }
}
