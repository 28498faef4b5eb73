import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { splitStatements } from '../migrate';
import type { Queryable } from '../types';

const ROWS_DIR = fileURLToPath(new URL('./rows/', import.meta.url));

/**
 * A handbook's demo rows as SQL of its own (`rows/<type>.sql`), for a handbook the demo generator does not
 * make: run after the generated operator, in name order, in the demo's transaction. `dir` is another folder of
 * them (a test's fixture).
 */
export async function insertDemoRowFiles(tx: Queryable, dir: string = ROWS_DIR): Promise<void> {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort()) {
    for (const statement of splitStatements(readFileSync(join(dir, name), 'utf8'))) await tx.query(statement);
  }
}
