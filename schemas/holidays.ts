import { defineHandbook } from '../src/shared/handbooks/types';
import { DOW_OPTIONS, autoId } from './common';

/**
 * Holidays: dates a route (or every route, when route_id is empty) runs another day's schedule; dow names
 * that day (null: any day). Import is insert-only.
 */
export default defineHandbook({
  type: 'holidays',
  title: 'Праздничные дни',
  titleEn: 'Holidays',
  section: { onByDefault: true, menuOrder: 160 },
  table: { schema: 'mgt', name: 'holidays' },
  primaryKey: 'id',
  fields: [
    autoId(),
    {
      kind: 'ref',
      name: 'route_id',
      label: 'Маршрут',
      target: 'routes',
      valueField: 'route_id',
      valueType: 'int',
      displayField: ['route_short_name', 'route_long_name'],
    },
    { kind: 'date', name: 'date', label: 'Дата', required: true },
    { kind: 'list', name: 'dow', label: 'Расписание дня недели', required: true, valueType: 'int', options: DOW_OPTIONS },
  ],
  defaultSort: { field: 'id', order: 'DESC' },
  import: {
    headers: ['route_id', 'date', 'dow'],
    example: ['1', '2025-05-09', '0'],
    mode: 'insert',
  },
});
