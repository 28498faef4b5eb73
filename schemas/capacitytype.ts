import { defineHandbook } from '../src/shared/handbooks/types';
import { autoId } from './common';

/** CapacityType: vehicle classes by size (МК, СК, БК, ОБК) and their seats. */
export default defineHandbook({
  type: 'capacitytype',
  title: 'Вместимость',
  titleEn: 'Capacity',
  section: { onByDefault: true, menuOrder: 80 },
  table: { schema: 'mgt', name: 'capacity_type' },
  primaryKey: 'id',
  fields: [
    autoId(),
    { kind: 'text', name: 'code', label: 'Код', required: true },
    { kind: 'text', name: 'title', label: 'Наименование', required: true },
    { kind: 'int', name: 'seats', label: 'Количество мест', required: true, min: 0, max: 1000 },
  ],
  defaultSort: { field: 'id', order: 'DESC' },
  import: {
    headers: ['id', 'code', 'title', 'seats'],
    example: ['', 'СК', 'Средний класс', '60'],
    mode: 'upsert',
  },
});
