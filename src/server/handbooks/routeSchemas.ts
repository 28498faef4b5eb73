import { HANDBOOK_EXPORT_FORMATS } from '../../shared/handbooks/api';
import { HANDBOOK_TYPES } from '../../../schemas/index';
import { INT4_MAX } from '../../shared/handbooks/validation';
import { FILTER_TEXT_MAX } from '../../shared/constants';
import { PER_PAGE_MAX } from './listQuery';
import { DELETE_MAX } from './deleteRows';

/**
 * OpenAPI (JSON Schema) of the handbook service's bodies: the spec only says "body config and row".
 * The handbook type is a plain string on purpose: an unknown type answers 404 like a switched-off one.
 */
const TYPES_NOTE = `Тип справочника: ${HANDBOOK_TYPES.join(', ')}.`;

export const configSchema = {
  type: 'object',
  required: ['type'],
  properties: { type: { type: 'string', maxLength: 40, description: TYPES_NOTE } },
} as const;

export const filtersSchema = {
  type: 'object',
  additionalProperties: true,
  description:
    'Фильтры по столбцам: текст — вхождение без учёта регистра (массив — точное совпадение); числа, даты, время (чч:мм) — значение, массив или диапазон {from, to}; ' +
    'списки и ссылки — значение или массив значений; логические — true/false; null — пустое значение; q — поиск по текстовым столбцам; id — первичный ключ.',
} as const;

export const sortSchema = {
  type: 'object',
  required: ['field'],
  properties: {
    field: { type: 'string', maxLength: 80, description: 'Столбец, или <ссылка>__display — сортировка ссылки по отображаемому тексту' },
    order: { type: 'string', enum: ['ASC', 'DESC', 'asc', 'desc'] },
  },
} as const;

export const rowSchema = {
  type: 'object',
  additionalProperties: true,
  description: 'Запись: столбцы справочника по именам; минуты можно передавать как «чч:мм», даты — ГГГГ-ММ-ДД, геометрию — WKT.',
} as const;

export const listBody = {
  type: 'object',
  required: ['config'],
  properties: {
    config: configSchema,
    filters: filtersSchema,
    sort: sortSchema,
    page: { type: 'integer', minimum: 1, maximum: INT4_MAX, default: 1 },
    perPage: { type: 'integer', minimum: 1, maximum: PER_PAGE_MAX, default: 100 },
  },
} as const;

export const saveBody = { type: 'object', required: ['config', 'row'], properties: { config: configSchema, row: rowSchema } } as const;

export const deleteBody = {
  type: 'object',
  required: ['config', 'ids'],
  properties: {
    config: configSchema,
    ids: { type: 'array', maxItems: DELETE_MAX, items: { anyOf: [{ type: 'integer' }, { type: 'string', maxLength: 100 }] } },
  },
} as const;

export const deleteOneBody = saveBody;

export const importJsonBody = {
  type: 'object',
  required: ['config', 'csv'],
  properties: {
    config: configSchema,
    csv: { type: 'string', description: 'Содержимое CSV-файла (разделитель «;», первая строка — заголовки)' },
  },
} as const;

export const importQuery = {
  type: 'object',
  properties: { type: { type: 'string', maxLength: 40, description: `Для Content-Type: text/csv. ${TYPES_NOTE}` } },
} as const;

export const exportBody = {
  type: 'object',
  required: ['config'],
  properties: {
    config: configSchema,
    filters: filtersSchema,
    sort: sortSchema,
    format: { type: 'string', enum: [...HANDBOOK_EXPORT_FORMATS] },
  },
} as const;

export const tripStopsQuery = {
  type: 'object',
  required: ['trip_id'],
  properties: { trip_id: { type: 'integer', minimum: 1, maximum: INT4_MAX } },
} as const;

export const tripStopsBody = {
  type: 'object',
  required: ['trip_id', 'stops'],
  properties: {
    trip_id: { type: 'integer', minimum: 1, maximum: INT4_MAX },
    stops: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          stop_id: { anyOf: [{ type: 'null' }, { type: 'integer' }, { type: 'string', maxLength: 20 }] },
          stop_sequence: { anyOf: [{ type: 'null' }, { type: 'integer' }, { type: 'string', maxLength: 20 }] },
          kkp: { anyOf: [{ type: 'null' }, { type: 'string', maxLength: 10 }], description: 'B — начало рейса, E — конец рейса, пусто' },
        },
      },
    },
  },
} as const;

export const optionsBody = {
  type: 'object',
  required: ['config', 'field'],
  properties: {
    config: configSchema,
    field: { type: 'string', maxLength: 80, description: 'Столбец-ссылка справочника' },
    q: { type: 'string', maxLength: 200 },
    values: { type: 'array', maxItems: 1000, items: { anyOf: [{ type: 'integer' }, { type: 'string', maxLength: 200 }] } },
    match: {
      type: 'object',
      maxProperties: 10,
      description:
        'Для поля с подсказками из другого справочника: значения полей записи, по которым они отбираются (выходы и смены варианта расписания)',
      additionalProperties: { anyOf: [{ type: 'integer' }, { type: 'string', maxLength: 100 }, { type: 'null' }] },
    },
    limit: { type: 'integer', minimum: 1, maximum: 50 },
  },
} as const;

export const addCamerasBody = {
  type: 'object',
  required: ['veh_list'],
  properties: { veh_list: { type: 'array', minItems: 1, maxItems: 1000, items: { type: 'integer', minimum: 1, maximum: INT4_MAX } } },
} as const;

export const genericQueryBody = {
  type: 'object',
  required: ['schema', 'table'],
  properties: {
    schema: { type: 'string', maxLength: 40, description: 'Схема БД: mgt, cat или adas' },
    table: { type: 'string', maxLength: 80 },
    fields: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 80 } },
    sort: { anyOf: [sortSchema, { type: 'array', maxItems: 5, items: sortSchema }] },
    limit: { type: 'integer', minimum: 1, maximum: PER_PAGE_MAX },
    offset: { type: 'integer', minimum: 0, maximum: INT4_MAX },
    filters: filtersSchema,
    distinct: { type: 'boolean' },
    search: {
      type: 'string',
      maxLength: FILTER_TEXT_MAX,
      description: 'С distinct: значения, в тексте которых есть эта строка (у ссылок — в показываемом тексте)',
    },
  },
} as const;
