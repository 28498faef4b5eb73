import { defineHandbook } from '../src/shared/handbooks/types';
import { autoId } from './common';

/** Trips of a route variant: direction (race_type) and trajectory; stops are edited by the tripStops widget. */
export default defineHandbook({
  type: 'trips',
  title: 'Рейсы',
  titleEn: 'Trips',
  section: { onByDefault: true, menuOrder: 140 },
  table: { schema: 'mgt', name: 'trip' },
  primaryKey: 'id',
  fields: [
    autoId(),
    {
      kind: 'ref',
      name: 'MarshVariant_id',
      label: 'Вариант маршрута',
      required: true,
      target: 'routevariants',
      valueField: 'id',
      valueType: 'int',
      displayField: ['id', 'description'],
    },
    { kind: 'text', name: 'race_type', label: 'Тип рейса', required: true },
    { kind: 'line', name: 'trajectory', label: 'Траектория', required: true, hidden: true },
    { kind: 'widget', name: 'stops', label: 'Остановки рейса', widget: 'tripStops' },
  ],
  defaultSort: { field: 'id', order: 'DESC' },
  import: {
    headers: ['id', 'MarshVariant_id', 'race_type', 'trajectory'],
    example: ['', '1', 'AB', 'LINESTRING(30.3609 59.9311, 30.3700 59.9350, 30.3800 59.9400)'],
    mode: 'upsert',
  },
});
