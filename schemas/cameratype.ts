import { defineHandbook } from '../src/shared/handbooks/types';

/** DevCamera_Type: the standard camera positions of a vehicle; `ip` is the key (spec's naming). */
export default defineHandbook({
  type: 'cameratype',
  title: 'Типы камер',
  titleEn: 'Camera types',
  section: { onByDefault: true, menuOrder: 60 },
  table: { schema: 'mgt', name: 'dev_camera_type' },
  primaryKey: 'ip',
  fields: [
    { kind: 'int', name: 'ip', label: 'ID', auto: true, readOnly: true },
    { kind: 'int', name: 'index', label: 'Номер', required: true, min: 0, max: 2147483647 },
    { kind: 'text', name: 'title', label: 'Наименование', required: true },
    { kind: 'ip', name: 'ip_addr', label: 'IP-адрес' },
  ],
  defaultSort: { field: 'index', order: 'ASC' },
  import: {
    headers: ['ip', 'index', 'title', 'ip_addr'],
    example: ['', '9', 'Салон, задняя дверь', '192.168.1.19'],
    mode: 'upsert',
  },
});
