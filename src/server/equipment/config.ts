import { flag, group, number, type Environment } from '../configuration/variables';
import { operatorTzOffsetMinutes } from '../platform/operatorDay';

/** Remote configuration and diagnostics settings, read from the environment by the area itself. */
export interface EquipmentConfig {
  /** This process may run the command dispatcher, under its lease (EQUIPMENT_WORKER, default true). */
  worker: boolean;
  /** How often the dispatcher moves commands on (EQUIPMENT_TICK_MS, 500). */
  tickMs: number;
  /** A sent command not confirmed within this is an error «Нет подтверждения» (EGTS_COMMAND_TIMEOUT_S, 30). */
  commandTimeoutMs: number;
  /**
   * Commands sent per tick at most (EGTS_COMMANDS_PER_TICK, 250): a rollout to the whole fleet is paced, so position
   * acknowledgements stay quick (2,000 a tick: ack p95 2.6 s in the bench).
   */
  sendPerTick: number;
  /** First retry after an error waits this long, doubling per attempt (EGTS_COMMAND_RETRY_S, 60). */
  retryBaseMs: number;
  /** Diagnostics: terminals' last data and demo faults are refreshed this often (EQUIPMENT_DIAGNOSTIC_S, 60). */
  diagnosticMs: number;
  tzOffsetMinutes: number;
}

export const equipmentVariables = group('Remote configuration and diagnostics', {
  worker: flag('EQUIPMENT_WORKER', {
    default: true,
    meaning:
      'this process may run the rollout dispatcher: with several processes the one holding its lease (`equipment.rollouts`) runs it, reaching terminals connected to any process; `false` keeps it from ever running here',
  }),
  tickMs: number('EQUIPMENT_TICK_MS', { default: 500, min: 50, unit: 'ms', meaning: 'its tick' }),
  diagnosticS: number('EQUIPMENT_DIAGNOSTIC_S', {
    default: 60,
    min: 1,
    unit: 's',
    meaning: "the diagnostics pass: terminals' last data and demo faults are refreshed this often",
  }),
  commandTimeoutS: number('EGTS_COMMAND_TIMEOUT_S', {
    default: 30,
    min: 1,
    unit: 's',
    meaning: "remote configuration: a sent command's confirmation wait",
  }),
  commandRetryS: number('EGTS_COMMAND_RETRY_S', {
    default: 60,
    min: 0,
    unit: 's',
    meaning: 'the first retry pause after an error (doubling per attempt)',
  }),
  commandsPerTick: number('EGTS_COMMANDS_PER_TICK', {
    default: 250,
    min: 1,
    meaning: 'commands sent per dispatcher tick (a rollout to the whole fleet is paced, so position acknowledgements stay quick)',
  }),
});

export function equipmentConfig(env: Environment = process.env): EquipmentConfig {
  const v = equipmentVariables.read(env);
  return {
    worker: v.worker,
    tickMs: v.tickMs,
    commandTimeoutMs: v.commandTimeoutS * 1000,
    sendPerTick: v.commandsPerTick,
    retryBaseMs: v.commandRetryS * 1000,
    diagnosticMs: v.diagnosticS * 1000,
    tzOffsetMinutes: operatorTzOffsetMinutes.read(env),
  };
}
