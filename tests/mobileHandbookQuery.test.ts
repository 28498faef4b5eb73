import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { api } from './tableFixtures';

/**
 * The field app's filter checklists over the generic query (field-app.md 2.6, 7): distinct values of one
 * field, a link with its shown text, narrowed by a search over that text, paged; read-only users may read.
 */
describe.each(ENGINES)('the field app handbook checklists on %s', (engine) => {
  let t: TestApp;
  let viewer: ReturnType<typeof api>;

  beforeAll(async () => {
    t = await startTestApp(engine);
    viewer = api(t, await t.login('viewer', 'viewer123'));
  });
  afterAll(() => t.close());

  it('lists a link with its shown text, searched in that text', async () => {
    const all = await viewer('/api/v1/handbooks/query', {
      schema: 'mgt',
      table: 'vehicles',
      fields: ['depot_id'],
      distinct: true,
      limit: 100,
    });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    const rows = all.body.list as { depot_id: number; depot_id__display: string }[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(Object.keys(row).sort()).toEqual(['depot_id', 'depot_id__display']);
    const named = rows.find((row) => row.depot_id__display)!;
    const part = named.depot_id__display.slice(1, 5);
    const searched = await viewer('/api/v1/handbooks/query', {
      schema: 'mgt',
      table: 'vehicles',
      fields: ['depot_id'],
      distinct: true,
      search: part.toUpperCase(),
    });
    expect(searched.status).toBe(200);
    const found = searched.body.list as { depot_id__display: string }[];
    expect(found.length).toBeGreaterThan(0);
    for (const row of found) expect(row.depot_id__display.toLowerCase()).toContain(part.toLowerCase());
    expect(searched.body.count).toBe(found.length);
  });

  it('searches numbers as text and pages the values with a count of all', async () => {
    const page = await viewer('/api/v1/handbooks/query', {
      schema: 'mgt',
      table: 'vehicles',
      fields: ['depot_number'],
      distinct: true,
      search: '1',
      limit: 5,
      offset: 0,
      sort: { field: 'depot_number', order: 'ASC' },
    });
    expect(page.status).toBe(200);
    const values = (page.body.list as { depot_number: number }[]).map((row) => row.depot_number);
    expect(values.length).toBeLessThanOrEqual(5);
    for (const value of values) expect(String(value)).toContain('1');
    expect([...values].sort((a, b) => a - b)).toEqual(values);
    expect(page.body.count).toBeGreaterThanOrEqual(values.length);
    const next = await viewer('/api/v1/handbooks/query', {
      schema: 'mgt',
      table: 'vehicles',
      fields: ['depot_number'],
      distinct: true,
      search: '1',
      limit: 5,
      offset: 5,
      sort: { field: 'depot_number', order: 'ASC' },
    });
    for (const row of next.body.list as { depot_number: number }[]) expect(values).not.toContain(row.depot_number);
  });

  it('sorts a link checklist by its shown text', async () => {
    const response = await viewer('/api/v1/handbooks/query', {
      schema: 'mgt',
      table: 'routes',
      fields: ['Depot_id'],
      distinct: true,
      sort: { field: 'Depot_id__display', order: 'ASC' },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const names = (response.body.list as { Depot_id__display: string | null }[]).map((row) => row.Depot_id__display ?? '');
    expect(names.length).toBeGreaterThan(0);
  });

  it('applies the other filters to the values listed', async () => {
    const [{ depot_id }] = await t.db.query<{ depot_id: number }>('select depot_id from mgt.vehicles where depot_id is not null limit 1');
    const response = await viewer('/api/v1/handbooks/query', {
      schema: 'mgt',
      table: 'vehicles',
      fields: ['depot_id'],
      distinct: true,
      filters: { depot_id: [depot_id] },
    });
    expect((response.body.list as { depot_id: number }[]).map((row) => row.depot_id)).toEqual([depot_id]);
  });

  it.each([
    [{ schema: 'mgt', table: 'trip', fields: ['trajectory'], distinct: true, search: 'LINE' }],
    [{ schema: 'mgt', table: 'stops', fields: ['stop_name'], distinct: true, search: 'x'.repeat(201) }],
    [{ schema: 'mgt', table: 'stops', fields: ['stop_name'], distinct: true, search: 5 }],
  ])('refuses a search it cannot run: %j', async (body) => {
    const response = await viewer('/api/v1/handbooks/query', body);
    expect(response.status).toBe(400);
  });

  it('finds nothing for a search with SQL wildcards taken literally', async () => {
    const response = await viewer('/api/v1/handbooks/query', {
      schema: 'mgt',
      table: 'stops',
      fields: ['stop_name'],
      distinct: true,
      search: "%_' or 1=1 --",
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ list: [], count: 0 });
  });
});
