import pino from 'pino';
import { openDatabase } from '../open';
import { migrate } from '../migrate';
import { seedPlatform } from '../seedPlatform';
import { loadDemoDataIfEmpty } from './loadDemoData';
import { serverVariables } from '../../config';
import type { DemoLoaderConfig } from './demoLoaderProcess';

/** The demo loader process (see demoLoaderProcess.ts): creates the database, loads the demo city, exits. */
const config = JSON.parse(serverVariables.variables.demoLoaderConfig.read() ?? '{}') as DemoLoaderConfig;
const log = pino({ level: config.logLevel });
const db = await openDatabase(config, log);
try {
  await migrate(db.longRunning());
  await seedPlatform(db);
  await loadDemoDataIfEmpty(db.longRunning(), config.demoScale, log);
} finally {
  await db.close();
}
