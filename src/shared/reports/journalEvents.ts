import { formatDateTime } from '../format';
import type { Locale } from '../errors';

/**
 * The names of what the event journals hold (/journal/eventsts, eventspo, video): each event kind, each
 * severity and each field of an event's details, in both languages, for the catalogues (journalLabels): the
 * console's table and the server's export read them there, so a journal reads the same on screen and in its file.
 */
type Names = Readonly<Record<string, Readonly<Record<Locale, string>>>>;

export const EVENT_KIND_NAMES = {
  connect: { ru: 'Подключение', en: 'Connect' },
  disconnect: { ru: 'Отключение', en: 'Disconnect' },
  pass_error: { ru: 'Ошибка прохода', en: 'Pass error' },
  request: { ru: 'Запрос видео', en: 'Video request' },
  status: { ru: 'Смена статуса', en: 'Status change' },
  viewed: { ru: 'Просмотр записи', en: 'Recording viewed' },
  deleted: { ru: 'Удаление запроса', en: 'Request deleted' },
  live: { ru: 'Онлайн-просмотр', en: 'Live view' },
  mnt_rollout_started: { ru: 'Развёртывание начато', en: 'Rollout started' },
  mnt_rollout_phase: { ru: 'Вторая очередь развёртывания', en: 'Rollout second phase' },
  mnt_rollout_finished: { ru: 'Развёртывание завершено', en: 'Rollout finished' },
  mnt_rollout_paused: { ru: 'Развёртывание приостановлено', en: 'Rollout paused' },
  mnt_rollout_pause: { ru: 'Развёртывание приостановлено пользователем', en: 'Rollout paused by a user' },
  mnt_rollout_resume: { ru: 'Развёртывание возобновлено', en: 'Rollout resumed' },
  mnt_rollout_cancel: { ru: 'Развёртывание отменено', en: 'Rollout cancelled' },
  mnt_command_performed: { ru: 'Конфигурация применена', en: 'Configuration applied' },
  mnt_command_applied_after_cancel: { ru: 'Конфигурация применена после отмены', en: 'Configuration applied after cancel' },
  mnt_command_error: { ru: 'Ошибка команды конфигурации', en: 'Configuration command error' },
} as const satisfies Names;

export const SEVERITY_NAMES = {
  info: { ru: 'Информация', en: 'Information' },
  warning: { ru: 'Предупреждение', en: 'Warning' },
  error: { ru: 'Ошибка', en: 'Error' },
} as const satisfies Names;

export const DETAIL_FIELD_NAMES = {
  channel: { ru: 'Канал', en: 'Channel' },
  remote: { ru: 'Адрес', en: 'Address' },
  terminalId: { ru: 'Терминал', en: 'Terminal' },
  source: { ru: 'Источник', en: 'Source' },
  import_id: { ru: 'Импорт', en: 'Import' },
  file: { ru: 'Файл', en: 'File' },
  line: { ru: 'Строка', en: 'Line' },
  column: { ru: 'Столбец', en: 'Column' },
  reason: { ru: 'Причина', en: 'Reason' },
  status: { ru: 'Статус', en: 'Status' },
  userId: { ru: 'ID пользователя', en: 'User ID' },
  liveRequest: { ru: 'Онлайн-запрос', en: 'Live request' },
  cameras: { ru: 'Камеры', en: 'Cameras' },
  from: { ru: 'С', en: 'From' },
  to: { ru: 'По', en: 'To' },
  rolloutId: { ru: 'Развёртывание', en: 'Rollout' },
  configurationId: { ru: 'Конфигурация', en: 'Configuration' },
  groupId: { ru: 'Группа', en: 'Group' },
  commands: { ru: 'Команд', en: 'Commands' },
  firstShare: { ru: 'Первая очередь, %', en: 'First phase, %' },
  errorThreshold: { ru: 'Порог ошибок, %', en: 'Error threshold, %' },
  commandId: { ru: 'Команда', en: 'Command' },
  attempts: { ru: 'Попыток', en: 'Attempts' },
  retryAt: { ru: 'Повтор', en: 'Retry at' },
  at: { ru: 'Время', en: 'Time' },
} as const satisfies Names;

/** The names of coded values a details field holds, by field: the channel a terminal's connection came through. */
export const DETAIL_VALUE_NAMES = {
  channel: {
    egts: { ru: 'EGTS', en: 'EGTS' },
    http: { ru: 'HTTP', en: 'HTTP' },
    simulator: { ru: 'Симулятор', en: 'Simulator' },
  },
} as const satisfies Readonly<Record<string, Names>>;

/** The catalogue prefix of a details column's value names beside its field names' (`journals.details`). */
export const detailValuesPrefix = (fields: string) => `${fields}Values`;

/** DETAIL_VALUE_NAMES in one language, by field, the shape of the client's catalogue. */
export function detailValueLabels(locale: Locale): Record<string, Record<string, string>> {
  return Object.fromEntries(Object.entries(DETAIL_VALUE_NAMES).map(([field, names]) => [field, journalLabels(names, locale)]));
}

/** A label table in one language, the shape of the client's catalogue. */
export function journalLabels(names: Names, locale: Locale): Record<string, string> {
  return Object.fromEntries(Object.entries(names).map(([code, text]) => [code, text[locale]]));
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A details value as a person reads it: a time in the product's format, a list joined, anything else as text. */
export function detailValue(value: unknown, offsetMinutes?: number): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return ISO_TIME.test(value) ? formatDateTime(value, { offsetMinutes }) : value;
  if (Array.isArray(value)) return value.map((v) => detailValue(v, offsetMinutes)).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const FIELD_ORDER = Object.keys(DETAIL_FIELD_NAMES);
/** A known field's place in DETAIL_FIELD_NAMES (jsonb keeps its keys in an order of its own), unknown ones after. */
const place = (key: string) => {
  const i = FIELD_ORDER.indexOf(key);
  return i < 0 ? FIELD_ORDER.length : i;
};

/**
 * An event's details as labelled fields («Канал: Симулятор»): each field's name from `label` (the raw key when
 * unknown), a coded value's name from `valueLabel` (field, value; the value itself when it has none).
 */
export function detailFields(
  details: unknown,
  label: (key: string) => string,
  offsetMinutes?: number,
  valueLabel: (key: string, value: string) => string | undefined = () => undefined,
): { label: string; value: string }[] {
  const record = typeof details === 'string' ? safeParse(details) : details;
  if (!record || typeof record !== 'object' || Array.isArray(record)) return [{ label: '', value: detailValue(record, offsetMinutes) }];
  return Object.entries(record as Record<string, unknown>)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .sort(([a], [b]) => place(a) - place(b))
    .map(([key, value]) => ({
      label: label(key),
      value: (key in DETAIL_VALUE_NAMES && typeof value === 'string' && valueLabel(key, value)) || detailValue(value, offsetMinutes),
    }));
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
