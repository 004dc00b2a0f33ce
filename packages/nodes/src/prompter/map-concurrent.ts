/**
 * Maps `items` through `fn` with at most `limit` calls in flight, keeping input order. The first
 * rejection rejects the whole map and stops starting new calls (calls already running finish on
 * their own; their results are dropped), so one failed provider call fails its document quickly.
 *
 * @example
 * ```ts
 * const described = await mapConcurrent(elements, 8, (el) => describe(el));
 * ```
 */
export async function mapConcurrent<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        out[i] = await fn(items[i] as T, i);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, () => worker());
  await Promise.all(workers);
  return out;
}
