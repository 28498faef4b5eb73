import { describe, expect, it } from 'vitest';
import { fileNameOf } from '../../src/client/components/downloadFile';
import { actionKey, objectKey } from '../../src/client/journals/journalFormat';
import { jsonDiff, parseJson } from '../../src/client/journals/jsonDiff';

describe('before/after comparison', () => {
  it('lists changed, added and removed leaves by dotted path', () => {
    const before = { name: 'A', permissions: { '/users': 4, '/roles': 4 }, usersCount: 1 };
    const after = { name: 'A', permissions: { '/users': 6, '/journal/adas': 4 }, usersCount: 1 };
    expect(jsonDiff(before, after)).toEqual([
      { path: 'permissions./journal/adas', kind: 'added', after: 4 },
      { path: 'permissions./roles', kind: 'removed', before: 4 },
      { path: 'permissions./users', kind: 'changed', before: 4, after: 6 },
    ]);
    expect(
      jsonDiff(before, after, true)
        .filter((line) => line.kind === 'same')
        .map((line) => line.path),
    ).toEqual(['name', 'usersCount']);
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
  it('action and object keys', () => {
    expect(actionKey('login')).toBe('journals.actions.login');
    expect(actionKey('PUT /api/v1/users/:id')).toBeUndefined();
    expect(objectKey('settings.video')).toEqual({ key: 'journals.objects.settings', sub: 'video' });
    expect(objectKey('user')).toEqual({ key: 'journals.objects.user', sub: undefined });
    expect(objectKey('/api/v1/x')).toBeUndefined();
  });
});

describe('export download', () => {
  it("the export's file name from Content-Disposition", () => {
    expect(fileNameOf('attachment; filename="useractions-2025-01-31.csv"', 'x.csv')).toBe('useractions-2025-01-31.csv');
    expect(fileNameOf("attachment; filename*=UTF-8''%D0%B6%D1%83%D1%80%D0%BD%D0%B0%D0%BB.csv", 'x.csv')).toBe('журнал.csv');
    expect(fileNameOf(null, 'x.csv')).toBe('x.csv');
  });
});
