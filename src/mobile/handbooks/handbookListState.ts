import type { Filters, ListSort } from '../../shared/handbooks/api';

/** Page, page size, sort and filters of one handbook's list, kept for the session so "back" finds them. */
export interface HandbookListState {
  page: number;
  perPage: number;
  sort?: ListSort;
  filters: Filters;
}

const storageKey = (type: string) => `field.handbook.${type}`;

export function readListState(type: string, perPage: number): HandbookListState {
  try {
    const saved = JSON.parse(sessionStorage.getItem(storageKey(type)) ?? 'null') as HandbookListState | null;
    if (saved && typeof saved.page === 'number' && typeof saved.perPage === 'number' && saved.filters && typeof saved.filters === 'object')
      return saved;
  } catch {
    // a damaged entry is forgotten
  }
  return { page: 0, perPage, filters: {} };
}

export function keepListState(type: string, state: HandbookListState): void {
  try {
    sessionStorage.setItem(storageKey(type), JSON.stringify(state));
  } catch {
    // storage full or blocked: the list starts over next time
  }
}
