import type { QueryLimits } from './db/types';
import { applySwitchList, defaultSwitches, type Switches } from '../shared/modules';

/** Everything the server reads from its environment; buildApp() takes the same shape from tests. */
export interface Config {
  port: number;
  host: string;
  /** A PostgreSQL server; when unset the embedded engine runs in dataDir. */
  databaseUrl?: string;
  /** How long the server waits at start for PostgreSQL to accept connections (DB_CONNECT_TIMEOUT_S), seconds. */
  dbConnectTimeoutS: number;
  /** Folder of the embedded database; undefined keeps it in memory (tests). */
  dataDir?: string;
  logLevel: string;
  demoData: boolean;
  /** 'city' (default) or 'test': the small data set e2e runs start with. */
  demoScale: 'city' | 'test';
  /** Built front end to serve; absent in API tests. */
  staticDir?: string;
  switches: Switches;
  session: { idleMinutes: number; absoluteHours: number };
  loginThrottle: { accountFailures: number; addressFailures: number; windowMinutes: number; lockMinutes: number };
  /** Trust X-Forwarded-For from a load balancer in front. */
  trustProxy: boolean;
  /**
   * HTTPS with HTTP/2 (TLS_CERT_FILE and TLS_KEY_FILE, PEM): a phone gives the field app its position and installs
   * it only from a secure origin. Unset: plain HTTP/1.1, TLS being a load balancer's.
   */
  tls?: { certFile: string; keyFile: string };
  bodyLimitBytes: number;
  /** Time limit of each query: the default, and the long one reports and exports ask for (Db.longRunning). */
  queryLimits: QueryLimits;
  /** Rows each query of a streamed export (reports, journals, handbooks) reads: memory at one batch (EXPORT_BATCH_ROWS; 5000 on PostgreSQL, 1000 on the embedded engine). */
  exportBatchRows: number;
  /**
   * PGlite's shared_buffers (default 128MB from its data folder). Every page they held stays in the WASM heap:
   * 32MB saves ~100 MB of memory but made the handbook list benchmark 3 times slower (64MB: 2 times).
   */
  pgliteSharedBuffers?: string;
  /** How many exports and reports one user may run at once (HEAVY_REQUESTS_PER_USER); more: 429. */
  heavyRequestsPerUser: number;
}

/** A count setting: a positive integer, or a mistake said at start. */
function positiveInteger(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${text}`);
  return value;
}

/** Both files or neither: one alone is a mistake said at start, not a silent plain-HTTP server. */
function tlsFiles(certFile: string | undefined, keyFile: string | undefined): Config['tls'] {
  if (!certFile && !keyFile) return undefined;
  if (!certFile || !keyFile) throw new Error('TLS_CERT_FILE and TLS_KEY_FILE go together: set both for HTTPS, or neither');
  return { certFile, keyFile };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const demoData = (env.DEMO_DATA ?? 'true') !== 'false';
  const switches = defaultSwitches(demoData);
  applySwitchList(switches.modules, env.MODULES);
  applySwitchList(switches.sections, env.SECTIONS);
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dbConnectTimeoutS: Number(env.DB_CONNECT_TIMEOUT_S ?? 120),
    dataDir: env.DATA_DIR ?? './data',
    logLevel: env.LOG_LEVEL ?? 'info',
    demoData,
    demoScale: env.DEMO_SCALE === 'test' ? 'test' : 'city',
    staticDir: env.STATIC_DIR ?? 'dist/client',
    switches,
    session: {
      idleMinutes: Number(env.SESSION_IDLE_MINUTES ?? 60),
      absoluteHours: Number(env.SESSION_ABSOLUTE_HOURS ?? 12),
    },
    loginThrottle: {
      accountFailures: Number(env.LOGIN_ACCOUNT_FAILURES ?? 5),
      addressFailures: Number(env.LOGIN_ADDRESS_FAILURES ?? 30),
      windowMinutes: Number(env.LOGIN_WINDOW_MINUTES ?? 15),
      lockMinutes: Number(env.LOGIN_LOCK_MINUTES ?? 5),
    },
    trustProxy: env.TRUST_PROXY === 'true',
    tls: tlsFiles(env.TLS_CERT_FILE, env.TLS_KEY_FILE),
    bodyLimitBytes: Number(env.BODY_LIMIT_BYTES ?? 1024 * 1024),
    pgliteSharedBuffers: env.PGLITE_SHARED_BUFFERS || undefined,
    heavyRequestsPerUser: Math.max(1, Number(env.HEAVY_REQUESTS_PER_USER ?? 1) || 1),
    queryLimits: {
      defaultMs: Number(env.QUERY_TIMEOUT_MS ?? 15_000),
      longMs: Number(env.QUERY_TIMEOUT_LONG_MS ?? 120_000),
    },
    // The embedded engine runs one statement at a time: shorter batches let other users' queries in between.
    exportBatchRows: positiveInteger('EXPORT_BATCH_ROWS', env.EXPORT_BATCH_ROWS, env.DATABASE_URL ? 5000 : 1000),
  };
}
