import { HANDBOOK_TYPES, HANDBOOKS } from '../../schemas/index';
import { tableSql } from '../../src/server/handbooks/sqlNames';
import type { Queryable } from '../../src/server/db/types';

/** The platform's own tables a refused request must leave alone, beside every handbook table. */
const PLATFORM_TABLES = [
  'app.users',
  'app.role',
  'app.user_role',
  'app.settings',
  'app.user_columns',
  // ticket control
  'bc.controller_task',
  'bc.controller_task_worker',
  'bc.controller_task_route',
  'bc.check_vehicle',
  'bc.task_photo',
  'bc.submission',
  // PDM
  'pdm.tree',
  'pdm.node',
  'pdm.tree_vehicle',
  'pdm.service_record',
  'pdm.import',
];

/**
 * A checksum of every handbook table and the platform's tables: md5 of the rows' text in a fixed order.
 * Two equal snapshots mean nothing was written between them.
 */
export async function tableChecksums(db: Queryable): Promise<Record<string, string>> {
  const tables = [...new Set([...HANDBOOK_TYPES.map((type) => tableSql(HANDBOOKS[type])), ...PLATFORM_TABLES])];
  const sums: Record<string, string> = {};
  for (const table of tables) {
    const [row] = await db.query<{ sum: string | null }>(`select md5(string_agg(t::text, '|' order by t::text)) as sum from ${table} t`);
    sums[table] = row.sum ?? 'empty';
  }
  return sums;
}
