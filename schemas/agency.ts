import { defineHandbook } from '../src/shared/handbooks/types';
import { DO_NOT_UPDATE, autoId } from './common';

/** Agency: carrier enterprises (spec section 3). ag_lat/ag_lon are the field app's map position. */
export default defineHandbook({
  type: 'agency',
  title: 'Перевозчики',
  titleEn: 'Carriers',
  section: { onByDefault: true, menuOrder: 10 },
  table: { schema: 'mgt', name: 'agency' },
  primaryKey: 'agency_id',
  fields: [
    autoId('agency_id'),
    { kind: 'text', name: 'title', label: 'Наименование', required: true },
    { kind: 'text', name: 'address', label: 'Адрес' },
    { kind: 'text', name: 'phone', label: 'Телефон' },
    { kind: 'int', name: 'transporter_id', label: 'Код перевозчика', required: true, min: 0, max: 32767 },
    { kind: 'point', name: 'ag_point', label: 'Координаты', lat: 'ag_lat', lon: 'ag_lon', hidden: true },
    DO_NOT_UPDATE,
  ],
  defaultSort: { field: 'agency_id', order: 'DESC' },
  import: {
    headers: ['agency_id', 'title', 'address', 'phone', 'transporter_id', 'ag_lat', 'ag_lon', 'do_not_update'],
    example: ['', 'ГУП «Пассажиравтотранс»', 'Санкт-Петербург, ул. Седова, 67', '+7 812 000-00-00', '101', '59.95355', '30.30991', 'true'],
    mode: 'upsert',
  },
  mobile: { pageSize: 10 },
});
