/** Pure logic of the filter modal: matching options to the search text and toggling the selection. */
export type FilterId = string | number;

export interface FilterOption {
  id: FilterId;
  name: string;
}

/** Case-insensitive, 'ё' read as 'е', surrounding and repeated spaces ignored. */
export function normalizeSearch(text: string): string {
  return text.toLocaleLowerCase('ru').replace(/ё/g, 'е').replace(/\s+/g, ' ').trim();
}

/** Options whose name (or id) contains the search text; all options for an empty search. */
export function filterOptions<T extends FilterOption>(options: readonly T[], search: string): T[] {
  const query = normalizeSearch(search);
  if (!query) return [...options];
  return options.filter((option) => normalizeSearch(option.name).includes(query) || String(option.id) === query);
}

/** Adds the id when absent, removes it when present; the order of the rest is kept. */
export function toggleId(selected: readonly FilterId[], id: FilterId): FilterId[] {
  return selected.includes(id) ? selected.filter((value) => value !== id) : [...selected, id];
}
