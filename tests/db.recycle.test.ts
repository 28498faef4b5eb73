import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPglite } from '../src/server/db/pglite';

/**
 * Giving the embedded engine's heap back (after the demo's history fills) reopens it at its turn in the queue:
 * an open transaction finishes first, the queries behind wait and then run on the new engine, nothing is lost.
 */
describe('embedded engine: memory released by reopening', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pglite-recycle-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lets an open transaction finish, then the queued queries run on the reopened engine', async () => {
    const db = await openPglite(dir);
    await db.exec('create table kept (id int)');
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const transaction = db.transaction(async (tx) => {
      await tx.query('insert into kept values (1)');
      await held; // the recycle is asked for while the transaction holds the engine
      await tx.query('insert into kept values (2)');
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const recycled = db.releaseMemory!();
    const behind = db.query<{ n: number }>('select count(*)::int as n from kept');
    release();
    await transaction;
    await recycled;
    expect(await behind).toEqual([{ n: 2 }]);
    await db.exec('insert into kept values (3)');
    await db.close();

    const again = await openPglite(dir);
    expect(await again.query('select id from kept order by id')).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    await again.close();
  });
});
