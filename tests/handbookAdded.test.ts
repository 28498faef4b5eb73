import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrate } from '../src/server/db/migrate';
import { insertDemoRowFiles } from '../src/server/db/demo/handbookRows';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { api } from './tableFixtures';

const FIXTURE = new URL('./fixtures/addedHandbook/', import.meta.url).pathname;

// The registry as the build writes it when schemas/ holds one more file: written from schemas/ and the fixture's
// schema file into a folder of its own, and put in place of the checked-in one for this file's imports.
const written = await vi.hoisted(async () => {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const registry = await import('../scripts/build/handbookRegistry.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'handbook-registry-'));
  const handbooks = registry.readHandbookFiles([
    registry.SCHEMAS_DIR,
    new URL('./fixtures/addedHandbook/schemas/', import.meta.url).pathname,
  ]);
  const files = { types: join(dir, 'handbookTypes.ts'), registry: join(dir, 'registry.ts') };
  writeFileSync(files.types, registry.renderTypes(handbooks));
  writeFileSync(files.registry, registry.renderRegistry(handbooks, files.registry));
  return files;
});
vi.mock('../src/shared/handbooks/handbookTypes', () => import(written.types));
vi.mock('../schemas/registry', () => import(written.registry));

describe.each(ENGINES)('a handbook added in its three places, on %s', (engine) => {
  let t: TestApp;
  let admin: ReturnType<typeof api>;

  beforeAll(async () => {
    t = await startTestApp(engine);
    expect(await migrate(t.db, `${FIXTURE}migrations`)).toEqual(['900_stop_shelter.sql']);
    await t.db.transaction((tx) => insertDemoRowFiles(tx, `${FIXTURE}rows`));
    admin = api(t, await t.login('admin', 'admin123'));
  });
  afterAll(() => t.close());

  it('lists its demo rows through the handbook API', async () => {
    const response = await admin('/api/table/list', { config: { type: 'stopshelter' }, sort: { field: 'id', order: 'ASC' } });
    expect(response.status).toBe(200);
    expect(response.body.count).toBe(2);
    expect((response.body.list as { title: string }[]).map((row) => row.title)).toEqual(['Павильон у вокзала', 'Навес у рынка']);
  });

  it('saves a record checked by its schema file', async () => {
    const refused = await admin('/api/table/element/save', { config: { type: 'stopshelter' }, row: { title: 'Навес', seats: 51 } });
    expect(refused.status).toBe(400);
    const saved = await admin('/api/table/element/save', { config: { type: 'stopshelter' }, row: { title: 'Навес', seats: 3 } });
    expect(saved.status).toBe(200);
    const [{ n }] = await t.db.query<{ n: number }>('select count(*)::int as n from mgt.stop_shelter');
    expect(n).toBe(3);
  });

  it('has its section switch and its place in the menu order', async () => {
    const switches = await admin('/api/v1/settings/modules');
    expect(switches.status).toBe(200);
    expect(JSON.stringify(switches.body)).toContain('handbooks.stopshelter');
    const { HANDBOOK_TYPES } = await import('../schemas/index');
    expect(HANDBOOK_TYPES.slice(0, 3)).toEqual(['agency', 'stopshelter', 'park']);
  });
});
