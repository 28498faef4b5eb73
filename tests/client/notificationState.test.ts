import { describe, expect, it } from 'vitest';
import {
  badgeText,
  initialListState,
  isNew,
  listState,
  viewedPage,
  type NotificationItem,
} from '../../src/client/notifications/notificationState';
import { pageOfRoles } from '../../src/web/providers/resources/roles';

const item = (id: number, fresh: boolean): NotificationItem => ({
  id,
  at: '2025-01-01T00:00:00Z',
  type: 'system',
  severity: 'info',
  title: `n${id}`,
  body: '',
  link: null,
  isNew: fresh,
});

describe('bell list states', () => {
  it('loading, then success with the page, or failure keeping what was shown', () => {
    expect(listState('loading', undefined)).toEqual({ ...initialListState, load: 'loading' });
    const page = { list: [item(2, true), item(1, false)], count: 7, new_list: [2] };
    expect(listState('success', page)).toEqual({ load: 'success', list: [item(2, true), item(1, false)], total: 7, newIds: [2] });
    const failed = listState('failure', page);
    expect(failed.load).toBe('failure');
    expect(failed.list).toHaveLength(2);
  });

  it('set all viewed clears new_list and the new flags', () => {
    const page = { list: [item(3, true), item(2, false)], count: 2, new_list: [3, 2] };
    expect(isNew(listState('success', page), item(2, false))).toBe(true);
    const viewed = listState('success', viewedPage(page));
    expect(viewed.newIds).toEqual([]);
    expect(viewed.list.every((entry) => !isNew(viewed, entry))).toBe(true);
  });

  it('badge: nothing at zero, the count, 99+ beyond', () => {
    expect(badgeText(0)).toBe('');
    expect(badgeText(5)).toBe('5');
    expect(badgeText(100)).toBe('99+');
  });
});

describe('roles resource (paged here: the API returns every role)', () => {
  const roles = [
    { id: 1, name: 'Администратор', description: 'Полный доступ', isSystem: true, usersCount: 1 },
    { id: 2, name: 'Диспетчер', description: 'Карта', isSystem: false, usersCount: 3 },
    { id: 3, name: 'Аудитор', description: null, isSystem: false, usersCount: 0 },
  ];
  it('searches name and description, sorts, pages', () => {
    expect(pageOfRoles(roles, { filter: { q: 'карт' } }).data.map((r) => r.id)).toEqual([2]);
    expect(pageOfRoles(roles, { filter: {}, sort: { field: 'name', order: 'ASC' } }).data.map((r) => r.id)).toEqual([1, 3, 2]);
    expect(pageOfRoles(roles, { filter: {}, sort: { field: 'usersCount', order: 'DESC' } }).data.map((r) => r.id)).toEqual([2, 1, 3]);
    const page = pageOfRoles(roles, { filter: {}, sort: { field: 'id', order: 'ASC' }, pagination: { page: 2, perPage: 2 } });
    expect(page).toEqual({ data: [roles[2]], total: 3 });
  });
});
