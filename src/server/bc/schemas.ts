import { MAX_COUNT, SEIZED_CATEGORIES } from '../../shared/bc/report';
import { ROUTE_TYPES, SETTABLE_STATUSES, TASK_STATUSES } from '../../shared/bc/tasks';

/** JSON schemas of the ticket-control calls (validation and the OpenAPI document). */

export const messages = { type: 'object', properties: { messages: { type: 'array', items: { type: 'string' } } } } as const;
const id = { type: 'integer', minimum: 1, maximum: 2_147_483_647 } as const;
const count = { type: 'integer', minimum: 0, maximum: MAX_COUNT } as const;
const optionalNumber = { type: ['integer', 'null'], minimum: 0, maximum: 2_147_483_647 } as const;
export const isoDate = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10 } as const;

export { idParams } from '../http/pathIds';

/** A comma list of ids in a query string. */
export const idList = { type: 'string', pattern: '^\\d{1,10}(,\\d{1,10}){0,99}$', maxLength: 1100 } as const;

export const idempotencyHeaders = {
  type: 'object',
  properties: {
    'idempotency-key': {
      type: 'string',
      minLength: 8,
      maxLength: 100,
      pattern: '^[A-Za-z0-9_.:-]+$',
      description: 'Ключ повтора: повторная отправка с тем же ключом принимается один раз и получает первый ответ',
    },
  },
} as const;

const vehicleCheck = {
  type: 'object',
  additionalProperties: false,
  required: ['route_short_name', 'depot_number', 'table_number', 'sell_tickets', 'take_tickets', 'kickout', 'OVDdeliver', 'driver_raport'],
  properties: {
    route_short_name: { type: 'string', maxLength: 50 },
    depot_number: optionalNumber,
    table_number: optionalNumber,
    sell_tickets: {
      type: 'array',
      maxItems: 200,
      items: { type: 'object', additionalProperties: false, required: ['ticket_id', 'count'], properties: { ticket_id: id, count } },
    },
    take_tickets: {
      type: 'array',
      minItems: 4,
      maxItems: 4,
      description: `Изъятые билеты: четыре категории в порядке ${SEIZED_CATEGORIES.join(', ')}`,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['ticket_id', 'count'],
        properties: { ticket_id: { type: 'string', enum: [...SEIZED_CATEGORIES] }, count },
      },
    },
    kickout: count,
    OVDdeliver: count,
    driver_raport: count,
  },
} as const;

export const resultBody = {
  type: 'object',
  additionalProperties: false,
  required: ['check_tickets', 'check_vehicles'],
  properties: {
    check_tickets: {
      type: 'object',
      maxProperties: 200,
      propertyNames: { pattern: '^[1-9]\\d{0,9}$', maxLength: 10 },
      additionalProperties: count,
      description: 'Проверено билетов по типам: { "<ticket_type_id>": количество }',
    },
    check_vehicles: { type: 'array', maxItems: 500, items: vehicleCheck },
  },
} as const;

export const statusBody = {
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: { status: { type: 'string', enum: [...SETTABLE_STATUSES] } },
} as const;

export const taskBody = {
  type: 'object',
  additionalProperties: false,
  required: ['number', 'date', 'graphic_type_id', 'department_id', 'control_region_id', 'worker_ids', 'routes'],
  properties: {
    number: { type: 'string', minLength: 1, maxLength: 50 },
    date: isoDate,
    graphic_type_id: id,
    department_id: id,
    control_region_id: { type: ['integer', 'null'], minimum: 1, maximum: 2_147_483_647 },
    worker_ids: { type: 'array', maxItems: 100, items: id },
    routes: {
      type: 'array',
      maxItems: 100,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['route_id', 'type'],
        properties: { route_id: id, type: { type: 'integer', enum: [...ROUTE_TYPES] } },
      },
    },
    note: { type: ['string', 'null'], maxLength: 2000 },
  },
} as const;

export const taskListQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    from: isoDate,
    to: isoDate,
    department: idList,
    status: { type: 'string', maxLength: 100, pattern: `^(${TASK_STATUSES.join('|')})(,(${TASK_STATUSES.join('|')})){0,3}$` },
    worker: id,
    sortField: { type: 'string', enum: ['id', 'number', 'date', 'department', 'status'] },
    sortOrder: { type: 'string', enum: ['ASC', 'DESC'] },
    skipCount: { type: 'integer', minimum: 0, maximum: 10_000_000 },
    recordCount: { type: 'integer', minimum: 1, maximum: 500 },
  },
} as const;
