import { migrate } from '../../src/server/db/migrate';
import { seedPlatform } from '../../src/server/db/seedPlatform';
import { loadDemoData } from '../../src/server/db/demo/loadDemoData';
import type { Db } from '../../src/server/db/types';

/** The state every test starts from: schema, platform seed, and the demo data at test scale. */
export async function prepareTestDatabase(db: Db): Promise<void> {
  await migrate(db.longRunning());
  await seedPlatform(db);
  await loadDemoData(db.longRunning(), 'test');
  // as the embedded engine's upkeep (and PostgreSQL's autovacuum) leave a freshly loaded database: planned on its real sizes
  await db.longRunning().exec('analyze');
}
