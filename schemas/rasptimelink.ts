import { defineHandbook } from '../src/shared/handbooks/types';
import { autoId } from './common';

/**
 * Schedule-time link (not detailed by the spec; our definition, table mgt.rasp_time_link in migration 004):
 * links an exit (graph) and shift (smena) of a schedule variant's times to the work graphic type the crew
 * works by (its start, end and hours), so assignments and ticket-control tasks know a shift's working
 * hours. One work graphic per (variant, exit, shift).
 */
export default defineHandbook({
  type: 'rasptimelink',
  title: 'Связь расписаний и графиков работы',
  titleEn: 'Schedule and work graphic links',
  section: { onByDefault: true, menuOrder: 240 },
  table: { schema: 'mgt', name: 'rasp_time_link' },
  primaryKey: 'id',
  fields: [
    autoId(),
    {
      kind: 'ref',
      name: 'RaspVariant_id',
      label: 'Вариант расписания',
      required: true,
      target: 'raspvariants',
      valueField: 'id',
      valueType: 'int',
      displayField: ['srv_id', 'startdate'],
    },
    { kind: 'int', name: 'graph', label: 'Выход', required: true, min: 0, max: 2147483647 },
    { kind: 'text', name: 'smena', label: 'Смена', required: true },
    {
      kind: 'ref',
      name: 'graphic_type_id',
      label: 'Тип графика работы',
      required: true,
      target: 'graphictype',
      valueField: 'id',
      valueType: 'int',
      displayField: ['code', 'title'],
    },
  ],
  defaultSort: { field: 'id', order: 'DESC' },
  import: {
    headers: ['id', 'RaspVariant_id', 'graph', 'smena', 'graphic_type_id'],
    example: ['', '1', '901', '1', '1'],
    mode: 'upsert',
  },
});
