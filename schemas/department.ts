import { defineHandbook } from '../src/shared/handbooks/types';
import { DEFAULT_COLOR } from './common';

/** Department: territorial departments of ticket control, with a map point and colour. */
export default defineHandbook({
  type: 'department',
  title: 'Территориальные отделы',
  titleEn: 'Territorial departments',
  section: { onByDefault: false, menuOrder: 330 },
  table: { schema: 'cat', name: 'department' },
  primaryKey: 'td_id',
  fields: [
    { kind: 'int', name: 'td_id', label: 'ID', auto: true, readOnly: true },
    { kind: 'text', name: 'td_name', label: 'Наименование', required: true },
    { kind: 'text', name: 'td_adress', label: 'Адрес', required: true },
    { kind: 'text', name: 'td_phone', label: 'Телефон' },
    {
      kind: 'ref',
      name: 'depot_id',
      label: 'Филиал',
      target: 'park',
      valueField: 'depot_id',
      valueType: 'int',
      displayField: 'depot_name',
    },
    { kind: 'point', name: 'td_point', label: 'Координаты', lat: 'td_lat', lon: 'td_lon', hidden: true },
    { kind: 'color', name: 'td_color', label: 'Цвет', default: DEFAULT_COLOR },
  ],
  defaultSort: { field: 'td_id', order: 'DESC' },
  import: {
    headers: ['td_id', 'td_name', 'td_adress', 'td_phone', 'depot_id', 'td_lat', 'td_lon', 'td_color'],
    example: ['', 'Центральный ТО', 'Санкт-Петербург, Невский пр., 1', '+7 812 000-00-01', '1', '59.9343', '30.3351', '#003a72'],
    mode: 'upsert',
  },
  mobile: { pageSize: 100 },
});
