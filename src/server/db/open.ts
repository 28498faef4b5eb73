import type { Config } from '../config';
import type { Db } from './types';

/** PostgreSQL when DATABASE_URL is set, the embedded engine otherwise. */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'queryLimits' | 'pgliteSharedBuffers'>): Promise<Db> {
  if (config.databaseUrl) {
    const { openPostgres } = await import('./postgres');
    return openPostgres(config.databaseUrl, undefined, config.queryLimits);
  }
  const { openPglite } = await import('./pglite');
  const settings = config.pgliteSharedBuffers ? [`shared_buffers=${config.pgliteSharedBuffers}`] : [];
  return openPglite(config.dataDir ? `${config.dataDir}/pg` : undefined, undefined, config.queryLimits, settings);
}
