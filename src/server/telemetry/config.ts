/**
 * Telemetry settings, read from the environment by this area itself (src/server/config.ts belongs to the
 * platform; these may move there later under `config.telemetry`).
 */
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
  deviceRefreshMs: number;
  httpMaxBatch: number;
  /** Positions dated later than now + this are refused (terminal clock errors). */
  futureToleranceMs: number;
  maxSpeedKmh: number;
}

const number = (value: string | undefined, fallback: number): number => {
  const parsed = value === undefined || value === '' ? Number.NaN : Number(value);
  return Number.isFinite(parsed) ? parsed : fallback;
};

export function telemetryConfig(env: NodeJS.ProcessEnv = process.env): TelemetryConfig {
  // Under the test runner every test file builds an app: none of them may grab the fixed port.
  const defaultPort = env.NODE_ENV === 'test' || env.VITEST ? 0 : 5162;
  return {
    egtsEnabled: (env.EGTS_ENABLED ?? 'true') !== 'false',
    egtsPort: number(env.EGTS_PORT, defaultPort),
    egtsHost: env.EGTS_HOST ?? '0.0.0.0',
    egtsMaxConnections: number(env.EGTS_MAX_CONNECTIONS, 10_000),
    egtsIdleTimeoutMs: number(env.EGTS_IDLE_TIMEOUT_S, 300) * 1000,
    egtsMaxFrameBytes: Math.min(number(env.EGTS_MAX_FRAME_BYTES, 65_553), 65_553),
    egtsMaxPendingWriteBytes: number(env.EGTS_MAX_PENDING_WRITE_BYTES, 256 * 1024),
    trackRetentionDays: number(env.TRACK_RETENTION_DAYS, 30),
    trackFlushIntervalMs: number(env.TRACK_FLUSH_MS, 1000),
    trackFlushRows: number(env.TRACK_FLUSH_ROWS, 5000),
    trackStatementRows: env.TRACK_STATEMENT_ROWS ? number(env.TRACK_STATEMENT_ROWS, 1000) : undefined,
    trackMaxBufferedRows: number(env.TRACK_MAX_BUFFERED_ROWS, 500_000),
    trackSpoolDir: env.TRACK_SPOOL_DIR || undefined,
    trackSpoolSyncMs: number(env.TRACK_SPOOL_SYNC_MS, 50),
    deviceRefreshMs: number(env.TELEMETRY_DEVICE_REFRESH_S, 60) * 1000,
    httpMaxBatch: number(env.TELEMETRY_HTTP_MAX_BATCH, 5000),
    futureToleranceMs: number(env.TELEMETRY_FUTURE_TOLERANCE_S, 300) * 1000,
    maxSpeedKmh: number(env.TELEMETRY_MAX_SPEED_KMH, 300),
  };
}
