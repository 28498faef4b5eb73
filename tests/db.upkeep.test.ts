import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { openPglite, type PgliteDb } from '../src/server/db/pglite';
import { EmbeddedUpkeep, upkeepOf } from '../src/server/db/embeddedUpkeep';

const log = pino({ level: 'silent' });

describe('embedded engine upkeep: what autovacuum would do', () => {
  it('analyzes a table never analyzed or much changed, vacuums one with many dead rows', () => {
    expect(upkeepOf({ name: 't', rows: -1, changed: 0, dead: 0 })).toEqual({ analyze: true, vacuum: false });
    expect(upkeepOf({ name: 't', rows: 100_000, changed: 5_000, dead: 5_000 })).toEqual({ analyze: false, vacuum: false });
    expect(upkeepOf({ name: 't', rows: 100_000, changed: 20_000, dead: 30_000 })).toEqual({ analyze: true, vacuum: true });
  });

  describe('on PGlite', () => {
    let db: PgliteDb;
    const rowsOf = async () =>
      (await db.query<{ n: number }>("select reltuples::float8 as n from pg_class where oid = 'shelf'::regclass"))[0].n;
    beforeAll(async () => {
      db = await openPglite();
      await db.exec('create table shelf (id int primary key, label text)');
      await db.query("insert into shelf select g, 'book ' || g from generate_series(1, 5000) g");
    }, 120_000);
    afterAll(() => db.close());

    it("gives the planner the table's size, then leaves it alone until it changes", async () => {
      expect(await rowsOf()).toBe(-1);
      const upkeep = new EmbeddedUpkeep(db, log);
      expect(await upkeep.pass()).toContain('analyze public.shelf');
      expect(await rowsOf()).toBe(5000);
      expect(await upkeep.pass()).not.toContain('analyze public.shelf');
    });

    it('vacuums and analyzes after most rows were rewritten', async () => {
      await db.query("update shelf set label = label || ' (2nd ed.)' where id <= 4000");
      expect(await new EmbeddedUpkeep(db, log).pass()).toContain('vacuum (analyze) public.shelf');
      const [{ dead }] = await db.query<{ dead: number }>(
        "select n_dead_tup::int as dead from pg_stat_user_tables where relname = 'shelf'",
      );
      expect(dead).toBe(0);
    });
  });
});
