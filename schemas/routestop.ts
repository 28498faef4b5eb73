import { defineHandbook } from '../src/shared/handbooks/types';
import { autoId } from './common';

/**
 * Route-stop link (not detailed by the spec; our definition, table mgt.route_stop in migration 004):
 * which stops a route serves, in which direction (0 forward, 1 backward) and in which order. It is the
 * route's published stop list (the stop popup's "routes through this stop", passenger information),
 * independent of the trips' geometry; one stop per (route, direction, position).
 */
export default defineHandbook({
  type: 'routestop',
  title: 'Остановки маршрутов',
  titleEn: 'Route stops',
  section: { onByDefault: true, menuOrder: 230 },
  table: { schema: 'mgt', name: 'route_stop' },
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
    {
      kind: 'list',
      name: 'direction',
      label: 'Направление',
      required: true,
      valueType: 'int',
      options: [
        { value: 0, label: 'Прямое' },
        { value: 1, label: 'Обратное' },
      ],
    },
    { kind: 'int', name: 'stop_order', label: 'Порядковый номер', required: true, min: 0, max: 10000 },
    {
      kind: 'ref',
      name: 'stop_id',
      label: 'Остановка',
      required: true,
      target: 'stops',
      valueField: 'stop_id',
      valueType: 'int',
      displayField: 'stop_name',
    },
  ],
  defaultSort: { field: 'id', order: 'DESC' },
  import: {
    headers: ['id', 'route_id', 'direction', 'stop_order', 'stop_id'],
    example: ['', '1', '0', '901', '1'],
    mode: 'upsert',
  },
});
