import { defineHandbook } from '../src/shared/handbooks/types';
import { autoId } from './common';

/** MNT type: models of on-board terminals (МНТ). `type` is a code, Latin letters only (spec section 5). */
export default defineHandbook({
  type: 'mnttype',
  title: 'Типы МНТ',
  titleEn: 'MNT types',
  section: { onByDefault: true, menuOrder: 40 },
  table: { schema: 'mgt', name: 'mnt_type' },
  primaryKey: 'id',
  fields: [
    autoId(),
    { kind: 'text', name: 'name', label: 'Наименование', required: true, pattern: 'nameChars' },
    { kind: 'text', name: 'type', label: 'Код типа', required: true, pattern: 'latinCode' },
    { kind: 'text', name: 'version', label: 'Версия', required: true },
    { kind: 'boolean', name: 'is_serial_number', label: 'Идентификация по серийному номеру', default: false },
  ],
  defaultSort: { field: 'id', order: 'DESC' },
  import: {
    headers: ['id', 'name', 'type', 'version', 'is_serial_number'],
    example: ['', 'MNT-200', 'mnt200', '2.4.1', 'false'],
    mode: 'upsert',
  },
});
