import { defineHandbook } from '../src/shared/handbooks/types';
import { DO_NOT_UPDATE, autoId } from './common';

/** Driver: employees (drivers and ticket controllers), with their branch and territorial department. */
export default defineHandbook({
  type: 'driver',
  title: 'Сотрудники',
  titleEn: 'Employees',
  section: { onByDefault: true, menuOrder: 30 },
  table: { schema: 'mgt', name: 'driver' },
  primaryKey: 'driver_id',
  fields: [
    autoId('driver_id'),
    { kind: 'text', name: 'last_name', label: 'Фамилия', required: true },
    { kind: 'text', name: 'first_name', label: 'Имя', required: true },
    { kind: 'text', name: 'middle_name', label: 'Отчество' },
    {
      kind: 'ref',
      name: 'depot_id',
      label: 'Филиал',
      target: 'park',
      valueField: 'depot_id',
      valueType: 'int',
      displayField: 'depot_name',
    },
    { kind: 'int', name: 'table_number', label: 'Табельный номер', required: true, min: 0, max: 2147483647 },
    {
      kind: 'ref',
      name: 'td_id',
      label: 'Территориальный отдел',
      target: 'department',
      valueField: 'td_id',
      valueType: 'int',
      displayField: 'td_name',
    },
    { kind: 'date', name: 'start_date', label: 'Дата приёма' },
    { kind: 'date', name: 'end_date', label: 'Дата увольнения' },
    DO_NOT_UPDATE,
  ],
  defaultSort: { field: 'driver_id', order: 'DESC' },
  import: {
    headers: [
      'driver_id',
      'last_name',
      'first_name',
      'middle_name',
      'depot_id',
      'table_number',
      'td_id',
      'start_date',
      'end_date',
      'do_not_update',
    ],
    example: ['', 'Иванов', 'Иван', 'Иванович', '1', '10245', '', '2024-01-15', '', 'true'],
    mode: 'upsert',
  },
  mobile: { pageSize: 10 },
});
