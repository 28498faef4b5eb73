import { numberFromEnv } from '../map/config';
import { parseIntervals, type IntervalMix } from './terminalReports';

/** Simulator settings, read from the environment by the area itself. */
export interface SimulatorConfig {
  /** SIMULATOR=true|false; by default on exactly when the demo data is (DEMO_DATA not 'false'). */
  enabled: boolean;
  /** The terminals' reporting intervals and their shares of the fleet (SIMULATOR_INTERVALS, `1:15,10:55,30:30`: seconds:percent). */
  intervals: IntervalMix;
  /** Schedule minutes are the operator's local time (SIMULATOR_TZ_OFFSET_MINUTES; default OPERATOR_TZ_OFFSET_MINUTES or +180). */
  tzOffsetMinutes: number;
  /** Driver-assistance incidents raised per hour across the fleet (SIMULATOR_INCIDENTS_PER_HOUR, 12: the demo history's weekday rate). */
  incidentsPerHour: number;
  /** A vehicle parked at its depot reports once every this many of its intervals, at most every 3 min (SIMULATOR_PARKED_EVERY, 6). */
  parkedEvery: number;
}

export function simulatorConfig(demoData: boolean, env: NodeJS.ProcessEnv = process.env): SimulatorConfig {
  const operatorOffset = numberFromEnv(env.OPERATOR_TZ_OFFSET_MINUTES, 180);
  return {
    enabled: env.SIMULATOR === 'true' || (env.SIMULATOR !== 'false' && demoData),
    intervals: parseIntervals(env.SIMULATOR_INTERVALS),
    tzOffsetMinutes: numberFromEnv(env.SIMULATOR_TZ_OFFSET_MINUTES, operatorOffset),
    incidentsPerHour: Math.max(0, numberFromEnv(env.SIMULATOR_INCIDENTS_PER_HOUR, 12)),
    parkedEvery: Math.max(1, Math.round(numberFromEnv(env.SIMULATOR_PARKED_EVERY, 6))),
  };
}
