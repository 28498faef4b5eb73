import type { FilterValue } from '../../shared/handbooks/api';

/**
 * The state of one field's filter panel (field-app spec 2.6): a checklist of the field's values, searched and
 * loaded a page at a time, with "select all"; applying gives the list's filter for the field. Pure, so the
 * panel's rules are tested without a browser.
 */

export type FilterScalar = string | number | null;

export interface ChecklistOption {
  /** The value as a key (JSON: null and 'null' differ). */
  key: string;
  value: FilterScalar;
  label: string;
}

export interface FilterPanelState {
  field: string;
  /** The search typed (the checklist follows it after the input delay). */
  search: string;
  options: ChecklistOption[];
  /** How many values match the search in all (the checklist shows a page at a time). */
  count: number;
  loading: boolean;
  /** "All" checked: every value, including those not loaded yet. */
  allSelected: boolean;
  /** Keys checked when not all are. */
  selected: string[];
}

export type FilterPanelAction =
  | { type: 'search'; text: string }
  | { type: 'loading' }
  | { type: 'loaded'; options: ChecklistOption[]; count: number; append: boolean }
  | { type: 'toggle'; key: string }
  | { type: 'toggleAll' };

export const optionKey = (value: FilterScalar): string => JSON.stringify(value);

/** The panel as it opens: the field's applied values checked, or all of them when the field has no filter. */
export function openFilterPanel(field: string, applied: FilterValue | undefined): FilterPanelState {
  const values = Array.isArray(applied) ? applied : applied === undefined ? undefined : [applied as FilterScalar];
  return {
    field,
    search: '',
    options: [],
    count: 0,
    loading: true,
    allSelected: values === undefined,
    selected: values ? values.map(optionKey) : [],
  };
}

function everyLoadedChecked(state: FilterPanelState, selected: string[]): boolean {
  return (
    state.search === '' &&
    state.options.length > 0 &&
    state.options.length >= state.count &&
    state.options.every((option) => selected.includes(option.key))
  );
}

export function reduceFilterPanel(state: FilterPanelState, action: FilterPanelAction): FilterPanelState {
  switch (action.type) {
    case 'search':
      return { ...state, search: action.text };
    case 'loading':
      return { ...state, loading: true };
    case 'loaded': {
      const options = action.append
        ? [...state.options, ...action.options.filter((option) => !state.options.some((had) => had.key === option.key))]
        : action.options;
      return { ...state, options, count: action.count, loading: false };
    }
    case 'toggleAll':
      return { ...state, allSelected: !state.allSelected, selected: [] };
    case 'toggle': {
      if (state.allSelected) {
        return { ...state, allSelected: false, selected: state.options.map((option) => option.key).filter((key) => key !== action.key) };
      }
      const selected = state.selected.includes(action.key)
        ? state.selected.filter((key) => key !== action.key)
        : [...state.selected, action.key];
      // Checking the last unchecked value of the whole list is "all" again: the filter goes away on apply.
      return everyLoadedChecked(state, selected) ? { ...state, allSelected: true, selected: [] } : { ...state, selected };
    }
  }
}

export const isChecked = (state: FilterPanelState, key: string): boolean => state.allSelected || state.selected.includes(key);

/** More values match than are loaded: "show more" loads the next page from this offset. */
export const hasMore = (state: FilterPanelState): boolean => state.options.length < state.count;

/** Apply needs something checked: a filter matching nothing is not a choice anyone makes. */
export const canApply = (state: FilterPanelState): boolean => state.allSelected || state.selected.length > 0;

/**
 * The field's filter after "apply": none when all values are checked without a search; with a search, "all"
 * means the values found (those loaded); otherwise the checked values.
 */
export function appliedFilter(state: FilterPanelState): FilterScalar[] | undefined {
  if (state.allSelected) return state.search.trim() === '' ? undefined : state.options.map((option) => option.value);
  return state.selected.map((key) => JSON.parse(key) as FilterScalar);
}

/** The list's filters with one field's filter set or removed. */
export function withFieldFilter<T extends Record<string, FilterValue>>(
  filters: T,
  field: string,
  value: FilterScalar[] | undefined,
): Record<string, FilterValue> {
  const next: Record<string, FilterValue> = { ...filters };
  if (value === undefined) delete next[field];
  else next[field] = value;
  return next;
}
