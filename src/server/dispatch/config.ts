import { group, number, type Environment } from '../configuration/variables';

/** The live timetable's settings from the environment (its rules are in the settings document). */
export const dispatchVariables = group('Live timetable', {
  retentionDays: number('DISPATCH_RETENTION_DAYS', {
    default: 400,
    positive: true,
    unit: 'days',
    meaning:
      'service dates of stop passages kept (`dispatch.stop_passage`, a partition a date, dropped whole once older; the learned times read the last 28 days, the reports any period kept). See «Storage» in [dispatch.md](dispatch.md#storage)',
  }),
});

export type DispatchConfig = ReturnType<typeof dispatchVariables.read>;

export function dispatchConfig(env: Environment = process.env): DispatchConfig {
  return dispatchVariables.read(env);
}
