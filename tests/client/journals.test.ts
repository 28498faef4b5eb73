import { describe, expect, it } from 'vitest';
import { fileNameOf } from '../../src/client/components/downloadFile';
import { actionKey, formatDateTime, objectKey } from '../../src/client/journals/journalFormat';
import { jsonDiff, parseJson } from '../../src/client/journals/jsonDiff';
import { JOURNAL_SPECS, journalOf } from '../../src/client/journals/journalColumns';
import { JOURNAL_SORTABLE, isoTime, journalApi, journalFilterQuery, journalListQuery } from '../../src/client/providers/resources/journals';

describe('before/after comparison', () => {
  it('lists changed, added and removed leaves by dotted path', () => {
    const before = { name: 'A', permissions: { '/users': 4, '/roles': 4 }, usersCount: 1 };
    const after = { name: 'A', permissions: { '/users': 6, '/journal/adas': 4 }, usersCount: 1 };
    expect(jsonDiff(before, after)).toEqual([
      { path: 'permissions./journal/adas', kind: 'added', after: 4 },
      { path: 'permissions./roles', kind: 'removed', before: 4 },
      { path: 'permissions./users', kind: 'changed', before: 4, after: 6 },
    ]);
    expect(jsonDiff(before, after, true).filter((line) => line.kind === 'same').map((line) => line.path)).toEqual(['name', 'usersCount']);
  });

  it('a creation lists every field as added, a deletion as removed; arrays compare whole', () => {
    expect(jsonDiff(null, { id: 1, roles: [1, 2] })).toEqual([
      { path: 'id', kind: 'added', after: 1 },
      { path: 'roles', kind: 'added', after: [1, 2] },
    ]);
    expect(jsonDiff({ roles: [1] }, undefined)).toEqual([{ path: 'roles', kind: 'removed', before: [1] }]);
    expect(jsonDiff({ roles: [1, 2] }, { roles: [2, 1] })).toEqual([{ path: 'roles', kind: 'changed', before: [1, 2], after: [2, 1] }]);
    expect(jsonDiff({ a: { b: null } }, { a: { b: 1 } })).toEqual([{ path: 'a.b', kind: 'changed', before: null, after: 1 }]);
  });

  it('reads JSON kept as text; identical documents give nothing', () => {
    expect(parseJson('{"a":1}')).toEqual({ a: 1 });
    expect(parseJson('plain')).toBe('plain');
    expect(jsonDiff('{"a":1}', { a: 1 })).toEqual([]);
    expect(jsonDiff(3, 4)).toEqual([{ path: '', kind: 'changed', before: 3, after: 4 }]);
  });
});

describe('journal display', () => {
  it('time as DD.MM.YYYY HH:mm:ss in local time', () => {
    const local = new Date(2025, 0, 5, 7, 3, 9);
    expect(formatDateTime(local.toISOString())).toBe('05.01.2025 07:03:09');
    expect(formatDateTime('')).toBe('');
    expect(formatDateTime('not a date')).toBe('');
  });

  it('action and object keys', () => {
    expect(actionKey('login')).toBe('journals.actions.login');
    expect(actionKey('PUT /api/v1/users/:id')).toBeUndefined();
    expect(objectKey('settings.video')).toEqual({ key: 'journals.objects.settings', sub: 'video' });
    expect(objectKey('user')).toEqual({ key: 'journals.objects.user', sub: undefined });
    expect(objectKey('/api/v1/x')).toBeUndefined();
  });

  it('a /journal/* address names its journal', () => {
    expect(journalOf('/journal/useractions')).toBe('useractions');
    expect(journalOf('/journal/adas/')).toBe('adas');
    expect(journalOf('/journal/nope')).toBeUndefined();
    for (const spec of Object.values(JOURNAL_SPECS)) {
      expect(spec.resource).toBe(`journal/${spec.id}`);
      for (const column of spec.columns.filter((c) => c.sortable)) expect(JOURNAL_SORTABLE[spec.id], `${spec.id} ${column.source}`).toContain(column.source);
    }
  });
});

describe('journals resource', () => {
  it('filters: period as ISO, ids as comma lists, types joined', () => {
    expect(isoTime('')).toBe('');
    expect(isoTime('nonsense')).toBe('');
    expect(isoTime('2025-01-31T10:00')).toBe(new Date('2025-01-31T10:00').toISOString());
    expect(journalFilterQuery({ from: '2025-01-31T10:00', user: [3, 5], type: ['login', 'create'] })).toEqual({
      from: new Date('2025-01-31T10:00').toISOString(), user: '3,5', type: 'login,create',
    });
    expect(journalFilterQuery({ vehicle: '12, 15;x 7', type: '5, 7' })).toEqual({ vehicle: '12,15,7', type: '5,7' });
    expect(journalFilterQuery(undefined)).toEqual({});
  });

  it('list query: sort only by sortable columns, page as skip and count', () => {
    expect(journalListQuery({ filter: {}, sort: { field: 'at', order: 'ASC' }, pagination: { page: 2, perPage: 30 } }, JOURNAL_SORTABLE.useractions))
      .toEqual({ sortField: 'at', sortOrder: 'ASC', skipCount: 30, recordCount: 30 });
    expect(journalListQuery({ filter: {}, sort: { field: 'before', order: 'ASC' }, pagination: { page: 1, perPage: 10 } }, JOURNAL_SORTABLE.useractions))
      .toEqual({ skipCount: 0, recordCount: 10 });
    expect(journalApi('journal/eventsts')).toBe('/api/v1/journals/eventsts');
  });

  it('the export\'s file name from Content-Disposition', () => {
    expect(fileNameOf('attachment; filename="useractions-2025-01-31.csv"', 'x.csv')).toBe('useractions-2025-01-31.csv');
    expect(fileNameOf("attachment; filename*=UTF-8''%D0%B6%D1%83%D1%80%D0%BD%D0%B0%D0%BB.csv", 'x.csv')).toBe('журнал.csv');
    expect(fileNameOf(null, 'x.csv')).toBe('x.csv');
  });
});
