import { defineHandbook } from '../src/shared/handbooks/types';
import { autoId } from './common';

/** Dvr types: recorder models; type_code is a Latin code (spec section 5). */
export default defineHandbook({
  type: 'dvrtype',
  title: 'Типы видеорегистраторов',
  titleEn: 'Video recorder types',
  section: { onByDefault: true, menuOrder: 260 },
  table: { schema: 'mgt', name: 'dvr_type' },
  primaryKey: 'id',
  fields: [
    autoId(),
    { kind: 'text', name: 'name', label: 'Наименование', required: true, maxLength: 255, pattern: 'nameChars' },
    { kind: 'text', name: 'type_code', label: 'Код типа', pattern: 'latinCode' },
    { kind: 'text', name: 'version', label: 'Версия' },
    { kind: 'boolean', name: 'is_serial_number_identification', label: 'Идентификация по серийному номеру', default: false },
  ],
  defaultSort: { field: 'id', order: 'DESC' },
  import: {
    headers: ['id', 'name', 'type_code', 'version', 'is_serial_number_identification'],
    example: ['', 'Streamax-X5', 'streamax_x5', '1.0', 'true'],
    mode: 'upsert',
  },
});
