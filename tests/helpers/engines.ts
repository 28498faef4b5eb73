/** The engines every API test runs on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set (CI). */
export type Engine = 'pglite' | 'postgres';
export const ENGINES: Engine[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
export const TEMPLATE_DUMP = '.tmp/test-template.tgz';
export const PG_TEMPLATE_DB = 'tc_test_template';

export function databaseUrlFor(name: string): string {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}
