import { flag, group, number, text, type Environment } from '../configuration/variables';

/** Telemetry settings, read from the environment by this area itself (src/server/config.ts belongs to the platform). */
export interface TelemetryConfig {
  /** Master switch of the EGTS listener (EGTS_ENABLED, default true). HTTP ingestion is always on. */
  egtsEnabled: boolean;
  /** TCP port of the EGTS listener (EGTS_PORT). 0 = not started; tests start it themselves on an ephemeral port. */
  egtsPort: number;
  egtsHost: string;
  /** Connections beyond this are refused by the kernel accept path (server.maxConnections). */
  egtsMaxConnections: number;
  /** A terminal silent this long is disconnected; GOST terminals send at least every few minutes. */
  egtsIdleTimeoutMs: number;
  /** Largest transport packet accepted: HL (16) + FDL (≤ 65535) + SFRCS (2) at most by the protocol. */
  egtsMaxFrameBytes: number;
  /** Answers queued to a terminal that does not read them beyond this: the connection is dropped. */
  egtsMaxPendingWriteBytes: number;
  /** Every EGTS connection starts with a PROXY protocol header (the listener is behind HAProxy's TCP frontend). */
  egtsProxyProtocol: boolean;
  trackRetentionDays: number;
  trackFlushIntervalMs: number;
  trackFlushRows: number;
  /** Rows per INSERT; undefined = by engine (1,000 embedded, 5,000 PostgreSQL). */
  trackStatementRows: number | undefined;
  /** Spooled rows kept in memory for the writer; beyond, it reads them back from the spool files. */
  trackMaxBufferedRows: number;
  /** Folder of the track spool (TRACK_SPOOL_DIR); undefined = DATA_DIR/track-spool, or a temporary one without DATA_DIR. */
  trackSpoolDir: string | undefined;
  /** Positions are fsync'd to the spool in groups this often, ms; an acknowledgement waits at most about this. */
  trackSpoolSyncMs: number;
  /** Folders of dead sibling processes next to the spool are written to the database (TRACK_SPOOL_ADOPT). */
  trackSpoolAdopt: boolean;
  trackSpoolAdoptMs: number;
  deviceRefreshMs: number;
  httpMaxBatch: number;
  /** Positions dated later than now + this are refused (terminal clock errors). */
  futureToleranceMs: number;
  maxSpeedKmh: number;
}

export const telemetryVariables = group('Telemetry in', {
  egtsEnabled: flag('EGTS_ENABLED', {
    default: true,
    meaning: 'the EGTS listener (`EGTS_PORT=0` turns it off too; HTTP ingestion is always on)',
  }),
  egtsPort: number('EGTS_PORT', { defaultText: '`5162`; `0` under the test runner', meaning: "the EGTS listener's TCP port" }),
  egtsHost: text('EGTS_HOST', { default: '0.0.0.0', meaning: 'the address it listens on' }),
  egtsMaxConnections: number('EGTS_MAX_CONNECTIONS', { default: 10_000, meaning: 'terminals connected at once' }),
  egtsIdleTimeoutS: number('EGTS_IDLE_TIMEOUT_S', { default: 300, unit: 's', meaning: 'a silent connection is closed after this long' }),
  egtsMaxFrameBytes: number('EGTS_MAX_FRAME_BYTES', {
    default: 65_553,
    max: 65_553,
    unit: 'bytes',
    meaning: "the largest frame accepted (the protocol's largest)",
  }),
  egtsMaxPendingWriteBytes: number('EGTS_MAX_PENDING_WRITE_BYTES', {
    default: 256 * 1024,
    unit: 'bytes',
    meaning: 'a connection whose unsent answers exceed this is closed',
  }),
  egtsProxyProtocol: flag('EGTS_PROXY_PROTOCOL', {
    default: false,
    meaning:
      "every EGTS connection must start with a PROXY protocol header (v1 or v2; HAProxy's `send-proxy-v2`) within 5 s, else it is closed: the terminal's address in it is what the vehicle-event journal and the logs record. Only behind a TCP load balancer that sends it (see «Behind HAProxy» in [deployment.md](deployment.md#behind-haproxy))",
  }),
  httpMaxBatch: number('TELEMETRY_HTTP_MAX_BATCH', { default: 5000, meaning: 'positions in one HTTP batch' }),
  futureToleranceS: number('TELEMETRY_FUTURE_TOLERANCE_S', {
    default: 300,
    unit: 's',
    meaning: "a fix further ahead of the server's clock is refused",
  }),
  maxSpeedKmh: number('TELEMETRY_MAX_SPEED_KMH', { default: 300, unit: 'km/h', meaning: 'a fix implying a faster jump is refused' }),
  deviceRefreshS: number('TELEMETRY_DEVICE_REFRESH_S', {
    default: 60,
    unit: 's',
    meaning: 'how often the terminal → vehicle directory is read again',
  }),
  trackSpoolDir: text('TRACK_SPOOL_DIR', {
    defaultText: '`DATA_DIR/track-spool`',
    meaning: 'where received positions are made durable before they are acknowledged; one per server process',
  }),
  trackSpoolSyncMs: number('TRACK_SPOOL_SYNC_MS', {
    default: 50,
    unit: 'ms',
    meaning: "positions are fsync'd to the spool in groups this often: an EGTS or HTTP acknowledgement waits about this long",
  }),
  trackSpoolAdopt: flag('TRACK_SPOOL_ADOPT', {
    default: true,
    meaning:
      'a process writes to the database the spool of a dead sibling: a folder next to its own spool with "spool" in its name, locked by a process of this machine that is gone (see «Several server processes» in [deployment.md](deployment.md#several-server-processes))',
  }),
  trackSpoolAdoptS: number('TRACK_SPOOL_ADOPT_S', {
    default: 5,
    positive: true,
    unit: 's',
    meaning: "how often the siblings' spool folders are looked at",
  }),
  trackMaxBufferedRows: number('TRACK_MAX_BUFFERED_ROWS', {
    default: 500_000,
    meaning:
      'spooled positions kept in memory while the database is slow or down; beyond, they are read back from the spool files (nothing is dropped)',
  }),
  trackFlushMs: number('TRACK_FLUSH_MS', { default: 1000, unit: 'ms', meaning: 'how often spooled positions are written to `app.track`' }),
  trackFlushRows: number('TRACK_FLUSH_ROWS', { default: 5000, meaning: 'rows per write' }),
  trackStatementRows: number('TRACK_STATEMENT_ROWS', {
    defaultText: 'by engine: `1000` embedded, `5000` PostgreSQL',
    meaning: 'rows per statement',
  }),
  trackRetentionDays: number('TRACK_RETENTION_DAYS', {
    default: 30,
    unit: 'days',
    meaning:
      "days of positions kept (`app.track`, by UTC day: a day's partition is dropped whole once all of it is older, so 30 to 31 days are there); a fix older than this is refused at ingestion. See «Storage over years» in [architecture.md](architecture.md#storage-over-years)",
  }),
  nodeEnv: text('NODE_ENV', { internal: true, meaning: '`test` under a test runner: the EGTS listener takes no fixed port' }),
  vitest: text('VITEST', { internal: true, meaning: 'set by Vitest: the EGTS listener takes no fixed port' }),
});

export function telemetryConfig(env: Environment = process.env): TelemetryConfig {
  const v = telemetryVariables.read(env);
  // Under the test runner every test file builds an app: none of them may grab the fixed port.
  const defaultPort = v.nodeEnv === 'test' || v.vitest ? 0 : 5162;
  return {
    egtsEnabled: v.egtsEnabled,
    egtsPort: v.egtsPort ?? defaultPort,
    egtsHost: v.egtsHost,
    egtsMaxConnections: v.egtsMaxConnections,
    egtsIdleTimeoutMs: v.egtsIdleTimeoutS * 1000,
    egtsMaxFrameBytes: v.egtsMaxFrameBytes,
    egtsMaxPendingWriteBytes: v.egtsMaxPendingWriteBytes,
    egtsProxyProtocol: v.egtsProxyProtocol,
    trackRetentionDays: v.trackRetentionDays,
    trackFlushIntervalMs: v.trackFlushMs,
    trackFlushRows: v.trackFlushRows,
    trackStatementRows: v.trackStatementRows,
    trackMaxBufferedRows: v.trackMaxBufferedRows,
    trackSpoolDir: v.trackSpoolDir,
    trackSpoolSyncMs: v.trackSpoolSyncMs,
    trackSpoolAdopt: v.trackSpoolAdopt,
    trackSpoolAdoptMs: v.trackSpoolAdoptS * 1000,
    deviceRefreshMs: v.deviceRefreshS * 1000,
    httpMaxBatch: v.httpMaxBatch,
    futureToleranceMs: v.futureToleranceS * 1000,
    maxSpeedKmh: v.maxSpeedKmh,
  };
}
