import { defineHandbook } from '../src/shared/handbooks/types';
import { autoId } from './common';

/** Work graphic type: shift patterns (code, start and end of work in hh:mm, hours); sorted by code. */
export default defineHandbook({
  type: 'graphictype',
  title: 'Типы графиков работы',
  titleEn: 'Work graphic types',
  section: { onByDefault: false, menuOrder: 380 },
  table: { schema: 'cat', name: 'work_graphic_type' },
  primaryKey: 'id',
  fields: [
    autoId(),
    { kind: 'int', name: 'code', label: 'Код', required: true, min: 0, max: 2147483647 },
    { kind: 'text', name: 'title', label: 'Наименование', required: true },
    { kind: 'text', name: 'short', label: 'Краткое наименование', required: true },
    { kind: 'minutes', name: 'start', label: 'Начало' },
    { kind: 'minutes', name: 'end', label: 'Окончание' },
    { kind: 'number', name: 'work_hours', label: 'Часов работы', min: 0, max: 48, decimals: 2 },
  ],
  defaultSort: { field: 'code', order: 'ASC' },
  import: {
    headers: ['code', 'title', 'short', 'start', 'end', 'work_hours'],
    example: ['901', 'Дневная смена', 'Д', '08:00', '17:00', '8'],
    mode: 'merge',
    keys: ['code'],
  },
});
