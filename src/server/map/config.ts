import { group, number, type Environment } from '../configuration/variables';
import { operatorTzOffset } from '../platform/operatorDay';

/**
 * Settings of the map area, read from the environment by the area itself (src/server/config.ts belongs to the
 * platform).
 */
export interface MapConfig {
  /**
   * The operator's offset from UTC in minutes (platform/operatorDay.ts): "today's assignment" and schedule
   * minutes of day are local to the operator, not to the server's clock.
   */
  tzOffsetMinutes: number;
  /** How often the vehicle → route, class and depot number directory is re-read (MAP_DIRECTORY_REFRESH_S, 60). */
  directoryRefreshMs: number;
}

export const mapVariables = group('Map', {
  directoryRefreshS: number('MAP_DIRECTORY_REFRESH_S', {
    default: 60,
    unit: 's',
    meaning: 'how often the vehicle → route, class and depot-number directory of the map is read again',
  }),
});

export function mapConfig(env: Environment = process.env): MapConfig {
  const v = mapVariables.read(env);
  return { tzOffsetMinutes: operatorTzOffset(env), directoryRefreshMs: v.directoryRefreshS * 1000 };
}
