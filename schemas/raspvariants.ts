import { defineHandbook } from '../src/shared/handbooks/types';
import { DO_NOT_UPDATE, DOW_OPTIONS, autoId } from './common';

/**
 * Schedule variants of a route: which timetable (srv_id, the service id of the scheduling system) runs on
 * which day of week from startdate to enddate. Import replaces, per srv_id in the file, that service's
 * variants (delete-then-insert, spec section 7).
 */
export default defineHandbook({
  type: 'raspvariants',
  title: 'Варианты расписаний',
  titleEn: 'Schedule variants',
  section: { onByDefault: true, menuOrder: 170 },
  table: { schema: 'mgt', name: 'rasp_variant' },
  primaryKey: 'id',
  fields: [
    autoId(),
    {
      kind: 'ref',
      name: 'route_id',
      label: 'Маршрут',
      required: true,
      target: 'routes',
      valueField: 'route_id',
      valueType: 'int',
      displayField: ['route_short_name', 'route_long_name'],
    },
    { kind: 'list', name: 'dow', label: 'День недели', valueType: 'int', options: DOW_OPTIONS },
    { kind: 'int', name: 'srv_id', label: 'Код расписания (srv_id)', required: true, min: 0, max: 2147483647 },
    { kind: 'date', name: 'startdate', label: 'Дата ввода', required: true },
    { kind: 'date', name: 'enddate', label: 'Дата окончания' },
    DO_NOT_UPDATE,
  ],
  rules: [{ rule: 'laterThan', field: 'enddate', than: 'startdate' }],
  defaultSort: { field: 'id', order: 'DESC' },
  import: {
    headers: ['route_id', 'dow', 'srv_id', 'startdate', 'enddate', 'do_not_update'],
    example: ['1', '', '900001', '2025-01-01', '2025-12-31', 'true'],
    mode: 'replace',
    keys: ['srv_id'],
  },
});
