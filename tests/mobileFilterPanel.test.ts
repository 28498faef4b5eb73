import { describe, expect, it } from 'vitest';
import {
  appliedFilter,
  canApply,
  hasMore,
  isChecked,
  openFilterPanel,
  optionKey,
  reduceFilterPanel,
  withFieldFilter,
  type ChecklistOption,
  type FilterPanelAction,
  type FilterPanelState,
} from '../src/mobile/handbooks/filterPanelState';

const option = (value: string | number | null): ChecklistOption => ({ key: optionKey(value), value, label: String(value ?? '(пусто)') });
const run = (state: FilterPanelState, ...actions: FilterPanelAction[]) => actions.reduce(reduceFilterPanel, state);
const loaded = (values: (string | number | null)[], count = values.length, append = false): FilterPanelAction => ({
  type: 'loaded',
  options: values.map(option),
  count,
  append,
});

describe('the handbook filter panel (field-app spec 2.6)', () => {
  it('opens with every value checked when the field has no filter, and applying changes nothing', () => {
    const state = run(openFilterPanel('route_type', undefined), loaded(['A', 'T', 'Tm']));
    expect(['A', 'T', 'Tm'].every((value) => isChecked(state, optionKey(value)))).toBe(true);
    expect(appliedFilter(state)).toBeUndefined();
  });

  it('opens with the applied values checked', () => {
    const state = run(openFilterPanel('route_type', ['T']), loaded(['A', 'T']));
    expect(isChecked(state, optionKey('T'))).toBe(true);
    expect(isChecked(state, optionKey('A'))).toBe(false);
    expect(appliedFilter(state)).toEqual(['T']);
  });

  it('unchecking one of "all" keeps the others; select all clears and restores', () => {
    let state = run(openFilterPanel('depot_id', undefined), loaded([1, 2, 3]), { type: 'toggle', key: optionKey(2) });
    expect(appliedFilter(state)).toEqual([1, 3]);
    state = reduceFilterPanel(state, { type: 'toggleAll' });
    expect(appliedFilter(state)).toBeUndefined();
    state = reduceFilterPanel(state, { type: 'toggleAll' });
    expect(canApply(state)).toBe(false);
    state = reduceFilterPanel(state, { type: 'toggle', key: optionKey(3) });
    expect(canApply(state)).toBe(true);
    expect(appliedFilter(state)).toEqual([3]);
  });

  it('checking the last unchecked value of the whole list means all again', () => {
    const state = run(openFilterPanel('depot_id', [1]), loaded([1, 2]), { type: 'toggle', key: optionKey(2) });
    expect(state.allSelected).toBe(true);
    expect(appliedFilter(state)).toBeUndefined();
  });

  it('keeps null (empty cells) apart from the text "null"', () => {
    const state = run(openFilterPanel('note', [null]), loaded([null, 'null']));
    expect(isChecked(state, optionKey(null))).toBe(true);
    expect(isChecked(state, optionKey('null'))).toBe(false);
    expect(appliedFilter(state)).toEqual([null]);
  });

  it('pages the values: show more appends the next page until the count is reached', () => {
    const first = Array.from({ length: 100 }, (_, i) => i);
    let state = run(openFilterPanel('depot_number', undefined), loaded(first, 150));
    expect(hasMore(state)).toBe(true);
    state = run(
      state,
      { type: 'loading' },
      loaded(
        Array.from({ length: 50 }, (_, i) => 100 + i),
        150,
        true,
      ),
    );
    expect(state.options).toHaveLength(150);
    expect(hasMore(state)).toBe(false);
    expect(state.loading).toBe(false);
  });

  it('with a search, select all applies the values found', () => {
    const state = run(openFilterPanel('stop_name', undefined), { type: 'search', text: 'Нев' }, loaded(['Невский', 'Нева']));
    expect(appliedFilter(state)).toEqual(['Невский', 'Нева']);
  });

  it('a new search replaces the list and keeps what was checked', () => {
    const state = run(openFilterPanel('stop_name', ['Нева']), loaded(['Нева', 'Охта']), { type: 'search', text: 'Ох' }, loaded(['Охта']), {
      type: 'toggle',
      key: optionKey('Охта'),
    });
    expect(state.options.map((o) => o.value)).toEqual(['Охта']);
    expect(appliedFilter(state)).toEqual(['Нева', 'Охта']);
  });

  it('sets or removes one field in the list filters', () => {
    expect(withFieldFilter({ a: [1], b: ['x'] }, 'a', undefined)).toEqual({ b: ['x'] });
    expect(withFieldFilter({ b: ['x'] }, 'a', [2])).toEqual({ a: [2], b: ['x'] });
  });
});
