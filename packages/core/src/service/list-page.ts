/** Sorting and paging of a list query. */
export interface PageQuery<K extends string> {
  sort_by: K;
  sort_direction: 'asc' | 'desc';
  page: number;
  page_size: number;
}

/** Sorts by one field (ties by id) and returns one page. */
export function sortAndPage<T extends { id: string }, K extends string>(items: T[], q: PageQuery<K>, field: (item: T, key: K) => string): T[] {
  const dir = q.sort_direction === 'asc' ? 1 : -1;
  const sorted = [...items].sort((a, b) => {
    const x = field(a, q.sort_by);
    const y = field(b, q.sort_by);
    if (x !== y) return (x < y ? -1 : 1) * dir;
    return (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * dir;
  });
  const start = (q.page - 1) * q.page_size;
  return sorted.slice(start, start + q.page_size);
}
