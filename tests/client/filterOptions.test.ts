import { describe, expect, it } from 'vitest';
import { filterOptions, normalizeSearch, toggleId } from '../../src/web/components/filterOptions';

const options = [
  { id: 1, name: 'Автобусный парк № 1' },
  { id: 2, name: 'Трамвайный парк Ёлкино' },
  { id: 3, name: 'Троллейбусный  парк' },
  { id: 42, name: 'Депо' },
];

describe('filter modal logic', () => {
  it('lists every option for an empty or blank search', () => {
    expect(filterOptions(options, '')).toEqual(options);
    expect(filterOptions(options, '   ')).toEqual(options);
  });

  it('matches a substring without regard to case', () => {
    expect(filterOptions(options, 'ПАРК').map((o) => o.id)).toEqual([1, 2, 3]);
    expect(filterOptions(options, 'трам').map((o) => o.id)).toEqual([2]);
  });

  it('reads ё as е and collapses spaces', () => {
    expect(filterOptions(options, 'елкино').map((o) => o.id)).toEqual([2]);
    expect(filterOptions(options, 'троллейбусный парк').map((o) => o.id)).toEqual([3]);
    expect(normalizeSearch('  Ёж   Ель ')).toBe('еж ель');
  });

  it('finds an option by its exact id', () => {
    expect(filterOptions(options, '42').map((o) => o.id)).toEqual([42]);
  });

  it('returns nothing when nothing matches', () => {
    expect(filterOptions(options, 'метро')).toEqual([]);
  });

  it('toggles ids in and out of the selection', () => {
    expect(toggleId([1, 2], 3)).toEqual([1, 2, 3]);
    expect(toggleId([1, 2, 3], 2)).toEqual([1, 3]);
    expect(toggleId([], 'a')).toEqual(['a']);
  });
});
