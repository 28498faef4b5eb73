import { describe, expect, it } from 'vitest';
import { adapterFor } from '../../src/web/providers/resources';
import { TASKS_RESOURCE, bcTasksAdapter, tasksListQuery } from '../../src/web/providers/resources/bcTasks';

describe('ticket-control orders resource', () => {
  it('is the adapter of bc/tasks', () => {
    expect(adapterFor(TASKS_RESOURCE)).toBe(bcTasksAdapter);
  });

  it("maps the list's filters, sort and page to the tasks API's own parameters", () => {
    expect(
      tasksListQuery({
        filter: { from: '2026-11-22', to: '2026-12-06', department: 2, status: 'closed', worker: 44 },
        sort: { field: 'number', order: 'ASC' },
        pagination: { page: 2, perPage: 100 },
      }),
    ).toEqual({
      from: '2026-11-22',
      to: '2026-12-06',
      department: '2',
      status: 'closed',
      worker: '44',
      sortField: 'number',
      sortOrder: 'ASC',
      skipCount: 100,
      recordCount: 100,
    });
  });

  it('leaves out empty filters and a column the API does not sort by', () => {
    expect(
      tasksListQuery({
        filter: { from: '', department: '', status: [] },
        sort: { field: 'workers', order: 'DESC' },
        pagination: { page: 1, perPage: 100 },
      }),
    ).toEqual({ skipCount: 0, recordCount: 100 });
  });
});
