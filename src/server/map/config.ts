import { group, number, type Environment } from '../configuration/variables';

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

/** Read by every area that counts the operator's days (GTFS, the simulator, remote configuration). */
export const operatorTzOffsetMinutes = number('OPERATOR_TZ_OFFSET_MINUTES', {
  default: 180, unit: 'min',
  meaning: 'the operator\'s time zone: its days (reports\' rollups, orders\' days, schedules)',
});

export const mapVariables = group('Map', {
  tzOffsetMinutes: operatorTzOffsetMinutes,
  directoryRefreshS: number('MAP_DIRECTORY_REFRESH_S', { default: 60, unit: 's', meaning: 'how often the vehicle → route, class and depot-number directory of the map is read again' }),
});

export function mapConfig(env: Environment = process.env): MapConfig {
  const v = mapVariables.read(env);
  return { tzOffsetMinutes: v.tzOffsetMinutes, directoryRefreshMs: v.directoryRefreshS * 1000 };
}
