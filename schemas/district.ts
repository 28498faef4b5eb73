import { defineHandbook } from '../src/shared/handbooks/types';

/** District: city districts as polygons (ticket control planning). */
export default defineHandbook({
  type: 'district',
  title: 'Районы',
  titleEn: 'Districts',
  section: { onByDefault: false, menuOrder: 320 },
  table: { schema: 'cat', name: 'district' },
  primaryKey: 'district_id',
  fields: [
    { kind: 'int', name: 'district_id', label: 'ID', auto: true, readOnly: true },
    { kind: 'text', name: 'district_code', label: 'Код', required: true },
    { kind: 'text', name: 'district_name', label: 'Наименование', required: true },
    { kind: 'polygon', name: 'geom', label: 'Граница', required: true, hidden: true },
  ],
  defaultSort: { field: 'district_id', order: 'DESC' },
  import: {
    headers: ['district_id', 'district_code', 'district_name', 'geom'],
    example: ['', 'ADM', 'Адмиралтейский', 'POLYGON((30.28 59.92, 30.32 59.92, 30.32 59.94, 30.28 59.94, 30.28 59.92))'],
    mode: 'upsert',
  },
});
