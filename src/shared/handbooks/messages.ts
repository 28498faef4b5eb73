/**
 * Every Russian text of the handbook rules in one place: the form (client) and the server (save, import)
 * show exactly these, so a refused value reads the same wherever it was refused. Spec texts are quoted
 * verbatim (console.md section 5); the others are ours in the same voice.
 */
export const MSG = {
  required: 'Это обязательное поле',
  ipFormat: 'Неверный формат IP-адреса',
  nameChars: 'Допустимы только буквы, цифры и знаки "_" и "-"',
  latinCode: 'Допустимы только латинские буквы, цифры и знаки "_" и "-"',
  scheduleEnd: 'Дата окончания не может быть меньше даты ввода',
  integer: 'Должно быть целым числом',
  number: 'Должно быть числом',
  text: 'Должно быть текстом',
  bigint: 'Должно быть целым неотрицательным числом',
  boolean: 'Должно быть «да» или «нет»',
  date: 'Неверная дата (ГГГГ-ММ-ДД или ДД.ММ.ГГГГ)',
  datetime: 'Неверные дата и время',
  time: 'Неверное время (чч:мм)',
  listValue: 'Недопустимое значение',
  color: 'Неверный цвет (#RRGGBB)',
  polygon: 'Неверный полигон (ожидается WKT POLYGON)',
  line: 'Неверная линия (ожидается WKT LINESTRING)',
  latitude: 'Широта должна быть от -90 до 90',
  longitude: 'Долгота должна быть от -180 до 180',
  port: 'Порт должен быть от 1 до 65535',
  referenceNotFound: 'Связанная запись не найдена',
  duplicate: 'Такая запись уже существует',
  outOfRange: 'Значение вне допустимого диапазона',
  badGeometry: 'Неверная геометрия',
  unknownColumn: 'Неизвестный столбец',
  missingColumn: 'Нет обязательного столбца',
  extraCells: 'Лишние значения в строке',
  unterminatedQuote: 'Незакрытая кавычка',
  recordTooLong: 'Слишком длинная строка файла',
  invalidCharacters: 'Текст содержит недопустимые символы',
  emptyFile: 'Файл не содержит строк',
  duplicateInFile: 'Значение повторяется в файле',
  routeNotFound: 'Маршрут не найден',
  variantNotFound: 'Нет действующего варианта расписания маршрута на эту дату',
  vehicleNotFound: 'Транспортное средство с таким гаражным номером не найдено',
  exitNotFound: 'В расписании нет такого выхода',
  driverNotFound: 'Не удалось подобрать водителя',
  tripNotFound: 'Рейс не найден',
} as const;

export type MessageKey = keyof typeof MSG;

export const maxLengthMessage = (n: number): string => `Не более ${n} символов`;
export const rangeMessage = (min: number | string, max: number | string): string => `Значение должно быть от ${min} до ${max}`;
export const maxDigitsMessage = (n: number): string => `Не более ${n} цифр`;
export const bigintMaxMessage = (max: string): string => `Значение не может быть больше ${max}`;
export const referencedByMessage = (title: string): string => `Запись используется в справочнике «${title}»`;
export const missingCellsMessage = (found: number, expected: number): string => `Не хватает значений в строке: ${found} из ${expected}`;
export const moreErrorsMessage = (n: number): string => `И ещё ошибок: ${n}`;

/**
 * Message codes the handbook service sends in `{ messages: [...] }`, for the error catalogue
 * (src/shared/errors.ts): until they are merged there, the client shows them upper-cased.
 */
export const HANDBOOK_ERROR_CODES = {
  validation_failed: { ru: 'Проверьте правильность заполнения полей', en: 'Check the highlighted fields' },
  import_failed: {
    ru: 'Импорт не выполнен: файл содержит ошибки, данные не изменены',
    en: 'Import failed: the file has errors, nothing was changed',
  },
  reference_not_found: { ru: 'Связанная запись не найдена', en: 'Linked record not found' },
  reference_in_use: { ru: 'Запись используется в других справочниках', en: 'The record is used by other handbooks' },
  duplicate_row: { ru: 'Такая запись уже существует', en: 'Such a record already exists' },
  check_violation: { ru: 'Значение вне допустимого диапазона', en: 'Value out of range' },
} as const satisfies Record<string, { ru: string; en: string }>;
export type HandbookErrorCode = keyof typeof HANDBOOK_ERROR_CODES;
