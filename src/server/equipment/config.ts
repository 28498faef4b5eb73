import { numberFromEnv } from '../map/config';

/** Remote configuration and diagnostics settings, read from the environment by the area itself. */
export interface EquipmentConfig {
  /** Run the command dispatcher in this process (EQUIPMENT_WORKER, default true; false on extra processes). */
  worker: boolean;
  /** How often the dispatcher moves commands on (EQUIPMENT_TICK_MS, 500). */
  tickMs: number;
  /** A sent command not confirmed within this is an error «Нет подтверждения» (EGTS_COMMAND_TIMEOUT_S, 30). */
  commandTimeoutMs: number;
  /** Commands sent per tick at most (EGTS_COMMANDS_PER_TICK, 250): a rollout to the whole fleet is paced, so position acknowledgements stay quick (2,000 a tick: ack p95 2.6 s in the bench). */
  sendPerTick: number;
  /** First retry after an error waits this long, doubling per attempt (EGTS_COMMAND_RETRY_S, 60). */
  retryBaseMs: number;
  /** Diagnostics: terminals' last data and demo faults are refreshed this often (EQUIPMENT_DIAGNOSTIC_S, 60). */
  diagnosticMs: number;
  tzOffsetMinutes: number;
}

export function equipmentConfig(env: NodeJS.ProcessEnv = process.env): EquipmentConfig {
  return {
    worker: env.EQUIPMENT_WORKER !== 'false',
    tickMs: Math.max(50, numberFromEnv(env.EQUIPMENT_TICK_MS, 500)),
    commandTimeoutMs: Math.max(1, numberFromEnv(env.EGTS_COMMAND_TIMEOUT_S, 30)) * 1000,
    sendPerTick: Math.max(1, numberFromEnv(env.EGTS_COMMANDS_PER_TICK, 250)),
    retryBaseMs: Math.max(0, numberFromEnv(env.EGTS_COMMAND_RETRY_S, 60)) * 1000,
    diagnosticMs: Math.max(1, numberFromEnv(env.EQUIPMENT_DIAGNOSTIC_S, 60)) * 1000,
    tzOffsetMinutes: numberFromEnv(env.OPERATOR_TZ_OFFSET_MINUTES, 180),
  };
}
