import { group, number, type Environment } from '../configuration/variables';

/** PDM settings, read from the environment by the area itself. */
export const pdmVariables = group('PDM', {
  flushMs: number('PDM_FLUSH_MS', {
    default: 200,
    positive: true,
    unit: 'ms',
    meaning: 'how often sensor readings are committed (their EGTS/HTTP answer waits for it)',
  }),
  retentionDays: number('PDM_RETENTION_DAYS', {
    default: 30,
    positive: true,
    unit: 'days',
    meaning:
      'days of raw readings and minute rollups kept (by UTC day, whole day partitions dropped as for positions; the hour rollups are kept)',
  }),
  sweepMs: number('PDM_SWEEP_MS', {
    default: 15_000,
    positive: true,
    unit: 'ms',
    meaning: 'how often silent nodes are moved to «Нет данных»',
  }),
  simulatorEveryMs: number('PDM_SIMULATOR_EVERY_MS', {
    default: 30_000,
    positive: true,
    unit: 'ms',
    meaning: "how often each demo vehicle's sensors report",
  }),
});

export type PdmConfig = ReturnType<typeof pdmVariables.read>;

export function pdmConfig(env: Environment = process.env): PdmConfig {
  return pdmVariables.read(env);
}
