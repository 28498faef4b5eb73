import { flag, group, number, text, type Environment } from '../configuration/variables';
import { operatorTzOffsetMinutes } from '../platform/operatorDay';
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

export const simulatorVariables = group('Simulator', {
  enabled: flag('SIMULATOR', {
    defaultText: 'on with demo data',
    meaning: "the built-in simulator driving the demo fleet by today's schedule (`true`/`false`)",
  }),
  intervals: text('SIMULATOR_INTERVALS', {
    default: '1:15,10:55,30:30',
    meaning:
      "the simulated terminals' reporting intervals and their shares of the fleet, `seconds:percent` (seconds 1 to 3600); unreadable gives the default",
  }),
  parkedEvery: number('SIMULATOR_PARKED_EVERY', {
    default: 6,
    min: 1,
    round: true,
    meaning: 'a vehicle parked at its depot reports once every this many of its intervals, at most every 3 min',
  }),
  incidentsPerHour: number('SIMULATOR_INCIDENTS_PER_HOUR', {
    default: 12,
    min: 0,
    meaning: 'ADAS incidents across the fleet an hour (more in the rush hours)',
  }),
  tzOffsetMinutes: number('SIMULATOR_TZ_OFFSET_MINUTES', {
    defaultText: '`OPERATOR_TZ_OFFSET_MINUTES`',
    meaning: "the zone of the schedule's minutes",
  }),
  terminalRefusePercent: number('SIMULATOR_TERMINAL_REFUSE_PERCENT', {
    default: 3,
    unit: '%',
    meaning: 'share of simulated terminals refusing a configuration',
  }),
});

export function simulatorConfig(demoData: boolean, env: Environment = process.env): SimulatorConfig {
  const v = simulatorVariables.read(env);
  return {
    enabled: v.enabled ?? demoData,
    intervals: parseIntervals(v.intervals),
    tzOffsetMinutes: v.tzOffsetMinutes ?? operatorTzOffsetMinutes.read(env),
    incidentsPerHour: v.incidentsPerHour,
    parkedEvery: v.parkedEvery,
  };
}
