import { defineHandbook } from '../src/shared/handbooks/types';
import { autoId } from './common';

/** MarshType, "message kinds": the kind of service a route provides (городское, пригородное сообщение). */
export default defineHandbook({
  type: 'marshtype',
  title: 'Виды сообщения',
  titleEn: 'Service kinds',
  section: { onByDefault: true, menuOrder: 110 },
  table: { schema: 'mgt', name: 'marsh_type' },
  primaryKey: 'id',
  fields: [autoId(), { kind: 'text', name: 'title', label: 'Наименование' }],
  defaultSort: { field: 'id', order: 'DESC' },
  import: {
    headers: ['id', 'title'],
    example: ['', 'Пригородное'],
    mode: 'upsert',
  },
});
