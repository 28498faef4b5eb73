import type { BooleanField, ChoicesFrom, Field, IntField, ListOption } from '../src/shared/handbooks/types';
import { DEFAULT_COLOR } from '../src/shared/constants';

/** Pieces several handbooks share, kept as plain data like the schemas themselves. */

/** Most handbooks: 'disable auto-update', default true (spec section 3). */
export const DO_NOT_UPDATE: BooleanField = {
  kind: 'boolean',
  name: 'do_not_update',
  label: 'Отключить автообновление',
  default: true,
};

/** A serial primary key the database assigns. */
export const autoId = (name = 'id', label = 'ID'): IntField => ({ kind: 'int', name, label, auto: true, readOnly: true });

/** Day of week: null means any day; 1 Monday .. 6 Saturday, 0 Sunday (spec: holidays, schedule variants). */
export const DOW_OPTIONS: readonly ListOption[] = [
  { value: null, label: 'Любой день' },
  { value: 1, label: 'Понедельник' },
  { value: 2, label: 'Вторник' },
  { value: 3, label: 'Среда' },
  { value: 4, label: 'Четверг' },
  { value: 5, label: 'Пятница' },
  { value: 6, label: 'Суббота' },
  { value: 0, label: 'Воскресенье' },
];

/** Exits (graph) and shifts (smena) offered for a schedule variant: those of its schedule times. */
const exitsOfVariant = (column: 'graph' | 'smena'): ChoicesFrom => ({
  handbook: 'rasptimes',
  column,
  match: { RaspVariant_id: 'RaspVariant_id' },
});

/** The shift of a schedule variant's exit on a date: what vehicle assignment and replacement are about. */
export const EXIT_SHIFT_ON_DATE: readonly Field[] = [
  { kind: 'date', name: 'date', label: 'Дата', required: true },
  {
    kind: 'ref',
    name: 'RaspVariant_id',
    label: 'Вариант расписания',
    required: true,
    target: 'raspvariants',
    valueField: 'id',
    valueType: 'int',
    displayField: ['srv_id', 'startdate'],
  },
  { kind: 'int', name: 'graph', label: 'Выход', required: true, min: 0, max: 2147483647, choicesFrom: exitsOfVariant('graph') },
  { kind: 'text', name: 'smena', label: 'Смена', required: true, choicesFrom: exitsOfVariant('smena') },
];

export { DEFAULT_COLOR };
