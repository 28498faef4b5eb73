import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { serverVariables, type Config } from '../../config';
import { entryPoint } from '../../entryPoints';

/** What the loader process needs of the server's configuration, passed in its environment. */
export type DemoLoaderConfig = Pick<Config, 'dataDir' | 'demoScale' | 'queryLimits' | 'pgliteSharedBuffers' | 'logLevel'>;

/** A first start on the embedded engine: its data folder holds no database yet. */
export function isNewEmbeddedDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): boolean {
  return !config.databaseUrl && config.dataDir !== undefined && !existsSync(`${config.dataDir}/pg/PG_VERSION`);
}

/**
 * Creates the embedded database and loads the demo city in a separate process, before the server opens it.
 * Generating the city and bulk-loading it grow both the JavaScript heap and PGlite's WASM heap by a few
 * hundred megabytes that a process never gives back; done in a process that then exits, the server starts
 * as small as on a second start.
 */
export async function loadDemoInChildProcess(config: DemoLoaderConfig, log: FastifyBaseLogger): Promise<void> {
  const { url, execArgv } = entryPoint('demoLoader');
  const env = { ...process.env, [serverVariables.variables.demoLoaderConfig.name]: JSON.stringify(config satisfies DemoLoaderConfig) };
  const child = spawn(process.execPath, [...execArgv, fileURLToPath(url)], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`demo data loader exited with code ${code}`);
  log.info('demo data loaded by the loader process');
}
