import { flag, group, number, type Environment } from '../configuration/variables';
import { operatorTzOffsetMinutes } from '../map/config';

/** Simulator settings, read from the environment by the area itself. */
export interface SimulatorConfig {
  /** SIMULATOR=true|false; by default on exactly when the demo data is (DEMO_DATA not 'false'). */
  enabled: boolean;
  /** Each vehicle on duty reports this often (SIMULATOR_INTERVAL_MS, 5000), the fleet spread evenly over it. */
  intervalMs: number;
  /** Schedule minutes are the operator's local time (SIMULATOR_TZ_OFFSET_MINUTES; default OPERATOR_TZ_OFFSET_MINUTES or +180). */
  tzOffsetMinutes: number;
  /** Driver-assistance incidents raised per hour across the fleet (SIMULATOR_INCIDENTS_PER_HOUR, 12: the demo history's weekday rate). */
  incidentsPerHour: number;
  /** A vehicle parked at its depot reports once every this many intervals (SIMULATOR_PARKED_EVERY, 6). */
  parkedEvery: number;
}

export const simulatorVariables = group('Simulator', {
  enabled: flag('SIMULATOR', { defaultText: 'on with demo data', meaning: 'the built-in simulator driving the demo fleet by today\'s schedule (`true`/`false`)' }),
  intervalMs: number('SIMULATOR_INTERVAL_MS', { default: 5000, min: 250, unit: 'ms', meaning: 'each vehicle on duty reports this often' }),
  parkedEvery: number('SIMULATOR_PARKED_EVERY', { default: 6, min: 1, round: true, meaning: 'a vehicle parked at its depot reports once every this many intervals' }),
  incidentsPerHour: number('SIMULATOR_INCIDENTS_PER_HOUR', { default: 12, min: 0, meaning: 'ADAS incidents across the fleet an hour (more in the rush hours)' }),
  tzOffsetMinutes: number('SIMULATOR_TZ_OFFSET_MINUTES', { defaultText: '`OPERATOR_TZ_OFFSET_MINUTES`', meaning: 'the zone of the schedule\'s minutes' }),
  terminalRefusePercent: number('SIMULATOR_TERMINAL_REFUSE_PERCENT', { default: 3, unit: '%', meaning: 'share of simulated terminals refusing a configuration' }),
});

export function simulatorConfig(demoData: boolean, env: Environment = process.env): SimulatorConfig {
  const v = simulatorVariables.read(env);
  return {
    enabled: v.enabled ?? demoData,
    intervalMs: v.intervalMs,
    tzOffsetMinutes: v.tzOffsetMinutes ?? operatorTzOffsetMinutes.read(env),
    incidentsPerHour: v.incidentsPerHour,
    parkedEvery: v.parkedEvery,
  };
}
