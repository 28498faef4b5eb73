import { defineHandbook } from '../src/shared/handbooks/types';
import { DO_NOT_UPDATE, autoId } from './common';

/** Routes. route_type links to TransportType by its `note` (the type code), as the spec says. */
export default defineHandbook({
  type: 'routes',
  title: 'Маршруты',
  table: { schema: 'mgt', name: 'routes' },
  primaryKey: 'route_id',
  fields: [
    autoId('route_id'),
    { kind: 'text', name: 'route_long_name', label: 'Наименование', required: true },
    { kind: 'ref', name: 'route_type', label: 'Вид транспорта', required: true, target: 'vehicletype', valueField: 'note', valueType: 'text', displayField: 'title' },
    { kind: 'ref', name: 'MarshType_id', label: 'Вид сообщения', required: true, target: 'marshtype', valueField: 'id', valueType: 'int', displayField: 'title' },
    { kind: 'text', name: 'route_short_name', label: 'Номер', required: true },
    { kind: 'text', name: 'route_desc', label: 'Описание', required: true, multiline: true },
    { kind: 'ref', name: 'Depot_id', label: 'Филиал', target: 'park', valueField: 'depot_id', valueType: 'int', displayField: 'depot_name' },
    { kind: 'date', name: 'startdate', label: 'Дата открытия' },
    { kind: 'date', name: 'enddate', label: 'Дата закрытия' },
    DO_NOT_UPDATE,
  ],
  defaultSort: { field: 'route_id', order: 'DESC' },
  import: {
    headers: ['route_id', 'route_long_name', 'route_type', 'MarshType_id', 'route_short_name', 'route_desc', 'Depot_id', 'startdate', 'enddate', 'do_not_update'],
    example: ['', 'Ст. м. «Купчино» — Пулковское ш.', 'A', '1', '187', 'Через ул. Звёздную', '1', '2024-01-01', '', 'true'],
    mode: 'upsert',
  },
  mobile: { pageSize: 10 },
});
