import { defineHandbook } from '../src/shared/handbooks/types';
import { autoId } from './common';

/** MarshVariants: versions of a route's path over time; trips belong to a variant. */
export default defineHandbook({
  type: 'routevariants',
  title: 'Варианты маршрутов',
  titleEn: 'Route variants',
  section: { onByDefault: true, menuOrder: 130 },
  table: { schema: 'mgt', name: 'marsh_variants' },
  primaryKey: 'id',
  fields: [
    autoId(),
    {
      kind: 'ref',
      name: 'route_id',
      label: 'Маршрут',
      required: true,
      target: 'routes',
      valueField: 'route_id',
      valueType: 'int',
      displayField: ['route_short_name', 'route_long_name'],
    },
    { kind: 'date', name: 'startdate', label: 'Дата начала' },
    { kind: 'date', name: 'enddate', label: 'Дата окончания' },
    { kind: 'text', name: 'description', label: 'Описание' },
  ],
  defaultSort: { field: 'id', order: 'DESC' },
  import: {
    headers: ['id', 'route_id', 'startdate', 'enddate', 'description'],
    example: ['', '1', '2024-06-01', '', 'Летний вариант'],
    mode: 'upsert',
  },
});
