/**
 * The command statuses a terminal's configuration command moves through: the media/command status codes of
 * console.md section 3 (the same table as video requests; their names: src/shared/mediaStatus.ts). 1 created (waiting
 * for its phase), 2 queuing
 * (due, waiting for the time window or a free slot), 3 waiting (the terminal is offline), 5 connecting (sent,
 * waiting for the terminal's confirmation), 6 performed (confirmed), 11 configuration error (the terminal
 * refused a parameter as illegal or unknown: not retried), 14 error (a refusal, no answer in time, cancelled;
 * the reason says which; retried while attempts are left).
 */
export const COMMAND_STATUS = {
  created: 1,
  queuing: 2,
  waiting: 3,
  connecting: 5,
  performed: 6,
  configurationError: 11,
  error: 14,
} as const;
export type CommandStatus = (typeof COMMAND_STATUS)[keyof typeof COMMAND_STATUS];
export const COMMAND_STATUS_CODES = Object.values(COMMAND_STATUS) as CommandStatus[];

/** Not final yet: a rollout is finished when none of its commands is in one of these (or retrying). */
export const OPEN_COMMAND_STATUSES: readonly CommandStatus[] = [1, 2, 3, 5];
export const ERROR_COMMAND_STATUSES: readonly CommandStatus[] = [11, 14];

/** Why a command ended in an error (stored as text, shown as it is). */
export const COMMAND_REASONS = {
  refused: 'Терминал отказал в выполнении команды',
  illegal: 'Терминал отклонил параметр как недопустимый',
  unknown: 'Терминал не поддерживает параметр',
  deleted: 'Команда удалена терминалом',
  timeout: 'Нет подтверждения от терминала',
  cancelled: 'Развёртывание отменено',
  sendFailed: 'Не удалось отправить команду',
} as const;

export const ROLLOUT_STATES = ['running', 'paused', 'cancelled', 'finished'] as const;
export type RolloutState = (typeof ROLLOUT_STATES)[number];
