import { defineHandbook } from '../src/shared/handbooks/types';

/** ControlRegion: zones a territorial department's controllers work in (polygon). */
export default defineHandbook({
  type: 'controlregion',
  title: 'Районы контроля',
  titleEn: 'Control regions',
  section: { onByDefault: false, menuOrder: 340 },
  table: { schema: 'cat', name: 'control_region' },
  primaryKey: 'cd_id',
  fields: [
    { kind: 'int', name: 'cd_id', label: 'ID', auto: true, readOnly: true },
    { kind: 'text', name: 'cd_name', label: 'Наименование', required: true },
    {
      kind: 'ref',
      name: 'td_id',
      label: 'Территориальный отдел',
      target: 'department',
      valueField: 'td_id',
      valueType: 'int',
      displayField: 'td_name',
    },
    { kind: 'polygon', name: 'geom', label: 'Граница', required: true, hidden: true },
  ],
  defaultSort: { field: 'cd_id', order: 'DESC' },
  import: {
    headers: ['cd_id', 'cd_name', 'td_id', 'geom'],
    example: ['', 'Невский проспект', '1', 'POLYGON((30.31 59.93, 30.36 59.93, 30.36 59.94, 30.31 59.94, 30.31 59.93))'],
    mode: 'upsert',
  },
  mobile: { pageSize: 100 },
});
