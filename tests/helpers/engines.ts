/** The engines every API test runs on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set (CI). */
export type Engine = 'pglite' | 'postgres';
export const ENGINES: Engine[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
export const TEMPLATE_DUMP = '.tmp/test-template.tgz';
/**
 * Prefix of the PostgreSQL test databases. Several checkouts testing at once on one server each set their own
 * (TEST_DB_PREFIX), since a run drops every database of its prefix left by an earlier run.
 */
export const PG_PREFIX = (process.env.TEST_DB_PREFIX ?? 'tc_test').replace(/[^a-z0-9_]/g, '');
export const PG_TEMPLATE_DB = `${PG_PREFIX}_template`;

export function databaseUrlFor(name: string): string {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}
