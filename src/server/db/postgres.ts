import pg from 'pg';
import { TYPE_PARSERS, type Db, type Queryable } from './types';

for (const [oid, parse] of Object.entries(TYPE_PARSERS)) pg.types.setTypeParser(Number(oid), parse);

/** A PostgreSQL server through a connection pool. */
export async function openPostgres(connectionString: string, poolSize = 10): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max: poolSize });
  // An idle connection the server drops (restart, failover) must cost one reconnect, not the process.
  pool.on('error', (error) => process.emitWarning(`PostgreSQL connection lost: ${error.message}`));
  await pool.query('select 1');
  const wrap = (target: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      return (await target.query(sql, params as unknown[])).rows as T[];
    },
  });
  return {
    engine: 'postgres',
    ...wrap(pool),
    async exec(sql) {
      await pool.query(sql);
    },
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await work(wrap(client));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
