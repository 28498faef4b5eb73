/**
 * Settings of the map area, read from the environment by the area itself (src/server/config.ts belongs to the
 * platform).
 */
export interface MapConfig {
  /**
   * The operator's offset from UTC in minutes (OPERATOR_TZ_OFFSET_MINUTES, default +180, Europe/Moscow):
   * "today's assignment" and schedule minutes of day are local to the operator, not to the server's clock.
   */
  tzOffsetMinutes: number;
  /** How often the vehicle → route, class and depot number directory is re-read (MAP_DIRECTORY_REFRESH_S, 60). */
  directoryRefreshMs: number;
}

export const numberFromEnv = (value: string | undefined, fallback: number): number => {
  const parsed = value === undefined || value === '' ? Number.NaN : Number(value);
  return Number.isFinite(parsed) ? parsed : fallback;
};

export function mapConfig(env: NodeJS.ProcessEnv = process.env): MapConfig {
  return {
    tzOffsetMinutes: numberFromEnv(env.OPERATOR_TZ_OFFSET_MINUTES, 180),
    directoryRefreshMs: numberFromEnv(env.MAP_DIRECTORY_REFRESH_S, 60) * 1000,
  };
}
