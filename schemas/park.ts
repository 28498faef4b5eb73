import { defineHandbook } from '../src/shared/handbooks/types';
import { DO_NOT_UPDATE, autoId } from './common';

/** Park: branches (depots) of a carrier (spec section 3, "Depot"). */
export default defineHandbook({
  type: 'park',
  title: 'Филиалы',
  titleEn: 'Branches',
  section: { onByDefault: true, menuOrder: 20 },
  table: { schema: 'mgt', name: 'depot' },
  primaryKey: 'depot_id',
  fields: [
    autoId('depot_id'),
    { kind: 'text', name: 'depot_name', label: 'Наименование', required: true },
    { kind: 'text', name: 'address', label: 'Адрес' },
    { kind: 'text', name: 'phone', label: 'Телефон' },
    {
      kind: 'ref',
      name: 'agency_id',
      label: 'Перевозчик',
      required: true,
      target: 'agency',
      valueField: 'agency_id',
      valueType: 'int',
      displayField: 'title',
    },
    { kind: 'point', name: 'dp_point', label: 'Координаты', lat: 'dp_lat', lon: 'dp_lon' },
    DO_NOT_UPDATE,
  ],
  defaultSort: { field: 'depot_id', order: 'DESC' },
  import: {
    headers: ['depot_id', 'depot_name', 'address', 'phone', 'agency_id', 'dp_lat', 'dp_lon', 'do_not_update'],
    example: ['', 'Автобусный парк № 7', 'Санкт-Петербург, пр. Энгельса, 100', '+7 812 000-00-07', '1', '60.01', '30.32', 'true'],
    mode: 'upsert',
  },
  mobile: { pageSize: 10 },
});
