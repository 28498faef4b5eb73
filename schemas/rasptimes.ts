import { defineHandbook } from '../src/shared/handbooks/types';

/**
 * Schedule times: for a schedule variant, exit (graph) and shift (smena), the time of each race at each
 * stop. Millions of rows in a large city. Import replaces the times of every schedule variant present in
 * the file (a generated delete + insert), the way timetables are published: whole variants at once.
 */
export default defineHandbook({
  type: 'rasptimes',
  title: 'Расписания',
  titleEn: 'Schedules',
  section: { onByDefault: true, menuOrder: 180 },
  table: { schema: 'mgt', name: 'rasp_time' },
  primaryKey: 'id',
  fields: [
    { kind: 'bigint', name: 'id', label: 'ID', auto: true, readOnly: true },
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
    { kind: 'text', name: 'racetype', label: 'Тип рейса', required: true },
    { kind: 'int', name: 'racenum', label: 'Номер рейса', required: true, min: 0, max: 2147483647 },
    { kind: 'int', name: 'order', label: 'Порядковый номер остановки', required: true, min: 0, max: 2147483647 },
    {
      kind: 'ref',
      name: 'stop_id',
      label: 'Остановка',
      required: true,
      target: 'stops',
      valueField: 'stop_id',
      valueType: 'int',
      displayField: 'stop_name',
    },
    { kind: 'minutes', name: 'time', label: 'Время', required: true },
  ],
  defaultSort: { field: 'id', order: 'DESC' },
  import: {
    headers: ['RaspVariant_id', 'graph', 'smena', 'racetype', 'racenum', 'order', 'stop_id', 'time'],
    example: ['1', '1', '1', 'AB', '1', '1', '1', '06:15'],
    mode: 'replace',
    keys: ['RaspVariant_id'],
  },
});
