import type { Locale } from '../errors';
import { UNIT_KIND_LABELS } from '../equipment/units';
import { mediaStatusLabels } from '../mediaStatus';
import {
  DETAIL_FIELD_NAMES,
  detailValueLabels,
  detailValuesPrefix,
  EVENT_KIND_NAMES,
  journalLabels,
  SEVERITY_NAMES,
} from './journalEvents';

type Names = Readonly<Record<string, Readonly<Record<Locale, string>>>>;

/**
 * The names of the values the declared reports' enum columns hold, in both languages, by the catalogue prefix
 * their columns declare (`labels`): the catalogues mount them there, and the server's export writes the Russian
 * ones, so a value reads the same in the console's table and in the exported file.
 */
export const VALUE_NAMES = {
  'bc.status': {
    new: { ru: 'Новое', en: 'New' },
    in_work: { ru: 'В работе', en: 'In work' },
    closed: { ru: 'Выполнено', en: 'Done' },
    not_achieved: { ru: 'Не выполнено', en: 'Not achieved' },
  },
  'reports.adas.reviews': {
    confirmed: { ru: 'Подтверждён', en: 'Confirmed' },
    false_alarm: { ru: 'Ложное срабатывание', en: 'False alarm' },
  },
  'equipment.unitStates': {
    ok: { ru: 'Исправно', en: 'OK' },
    stale: { ru: 'Данные устарели', en: 'Data outdated' },
    fault: { ru: 'Неисправность', en: 'Fault' },
    noData: { ru: 'Нет данных', en: 'No data' },
    off: { ru: 'Отключено', en: 'Switched off' },
  },
  'pdm.states': {
    normal: { ru: 'Норма', en: 'Normal' },
    warning: { ru: 'Предупреждение', en: 'Warning' },
    fault: { ru: 'Неисправность', en: 'Fault' },
    no_data: { ru: 'Нет данных', en: 'No data' },
  },
  'pdm.kinds': {
    logger: { ru: 'Регистратор', en: 'Data logger' },
    unit: { ru: 'Узел', en: 'Unit' },
    sensor: { ru: 'Датчик', en: 'Sensor' },
  },
  'pdm.works': {
    repair: { ru: 'Ремонт', en: 'Repair' },
    maintenance: { ru: 'ТО', en: 'Maintenance' },
    calibration: { ru: 'Калибровка', en: 'Calibration' },
    replacement: { ru: 'Замена', en: 'Replacement' },
  },
  'pdm.due': {
    overdue: { ru: 'Просрочено', en: 'Overdue' },
    soon: { ru: 'Скоро', en: 'Soon' },
    ok: { ru: 'В срок', en: 'On time' },
    none: { ru: '—', en: '—' },
  },
  'reports.passengers.directions': {
    0: { ru: 'Прямое', en: 'Forward' },
    1: { ru: 'Обратное', en: 'Backward' },
  },
  'reports.passengers.verdicts': {
    larger: { ru: 'Нужен класс больше', en: 'Needs a larger class' },
    smaller: { ru: 'Хватит класса меньше', en: 'A smaller class will do' },
    fits: { ru: 'Класс подходит', en: 'Class fits' },
  },
  'reports.passengers.importStatuses': {
    done: { ru: 'Загружен', en: 'Imported' },
    refused: { ru: 'Отклонён', en: 'Refused' },
  },
  'reports.dispatch.directions': {
    0: { ru: 'Прямое', en: 'Outbound' },
    1: { ru: 'Обратное', en: 'Inbound' },
  },
  'reports.dispatch.horizons': {
    h00_05: { ru: '0–5 мин', en: '0–5 min' },
    h05_10: { ru: '5–10 мин', en: '5–10 min' },
    h10_20: { ru: '10–20 мин', en: '10–20 min' },
    h20_30: { ru: '20–30 мин', en: '20–30 min' },
  },
  'reports.dispatch.methods': {
    learned: { ru: 'По накопленным временам', en: 'Learned run times' },
    baseline: { ru: 'Расписание и текущее отклонение', en: 'Timetable plus current deviation' },
  },
} as const satisfies Readonly<Record<string, Names>>;

/** One table of VALUE_NAMES in one language, by code: what a catalogue mounts at the table's prefix. */
export function valueLabels<P extends keyof typeof VALUE_NAMES>(
  prefix: P,
  locale: Locale,
): { [K in keyof (typeof VALUE_NAMES)[P]]: string } {
  const names: Names = VALUE_NAMES[prefix];
  return journalLabels(names, locale) as { [K in keyof (typeof VALUE_NAMES)[P]]: string };
}

/** The Russian labels of every declared enum or details column, by the prefix it declares. */
const RUSSIAN: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  ...Object.fromEntries(Object.keys(VALUE_NAMES).map((prefix) => [prefix, valueLabels(prefix as keyof typeof VALUE_NAMES, 'ru')])),
  'journals.kinds': journalLabels(EVENT_KIND_NAMES, 'ru'),
  'journals.severities': journalLabels(SEVERITY_NAMES, 'ru'),
  'journals.details': journalLabels(DETAIL_FIELD_NAMES, 'ru'),
  ...Object.fromEntries(
    Object.entries(detailValueLabels('ru')).map(([field, names]) => [`${detailValuesPrefix('journals.details')}.${field}`, names]),
  ),
  'video.statuses': mediaStatusLabels('ru'),
  'equipment.unitKinds': UNIT_KIND_LABELS,
};

/** The prefixes russianValueLabel knows: every enum or details column of a declared report names one of them. */
export const RUSSIAN_VALUE_PREFIXES: readonly string[] = Object.keys(RUSSIAN);

/**
 * The Russian label of a catalogue key `<prefix>.<code>` an enum column's value or a details column's field
 * names (the exported files are Russian, as their headers); undefined for a key outside these tables.
 */
export function russianValueLabel(key: string): string | undefined {
  const dot = key.lastIndexOf('.');
  if (dot < 0) return undefined;
  const table = RUSSIAN[key.slice(0, dot)];
  const code = key.slice(dot + 1);
  return table && Object.prototype.hasOwnProperty.call(table, code) ? table[code] : undefined;
}
