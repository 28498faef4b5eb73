import type { Config } from '../config';
import type { ConnectOptions } from './postgres';
import type { Db } from './types';

/**
 * PostgreSQL when DATABASE_URL is set (waiting up to dbConnectTimeoutS for it to come up), the embedded
 * engine otherwise; both with the configured query time limits.
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'queryLimits' | 'pgliteSharedBuffers'> & Partial<Pick<Config, 'dbConnectTimeoutS'>>,
  log?: ConnectOptions['log'],
): Promise<Db> {
  if (config.databaseUrl) {
    const { openPostgres } = await import('./postgres');
    return openPostgres(config.databaseUrl, 10, { connectTimeoutS: config.dbConnectTimeoutS ?? 120, log, limits: config.queryLimits });
  }
  const { openPglite } = await import('./pglite');
  const settings = config.pgliteSharedBuffers ? [`shared_buffers=${config.pgliteSharedBuffers}`] : [];
  return openPglite(config.dataDir ? `${config.dataDir}/pg` : undefined, undefined, config.queryLimits, settings);
}
