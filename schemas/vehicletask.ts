import { defineHandbook } from '../src/shared/handbooks/types';
import { EXIT_SHIFT_ON_DATE, autoId } from './common';

/**
 * Vehicle_Task: a vehicle and driver assigned to an exit (graph) and shift (smena) of a schedule variant
 * on a date. Graph and shift options come from the variant's schedule times. Import goes through the
 * assign-or-replace procedure (mgt.assign_or_replace_vehicle, migration 004) at its own endpoint, with the
 * dispatch columns date;route_number;grafic;depot_number;start_time;end_time and an optional header line;
 * export writes the table's own columns.
 */
export default defineHandbook({
  type: 'vehicletask',
  title: 'Назначение ТС на маршрут',
  titleEn: 'Vehicle assignment',
  section: { onByDefault: true, menuOrder: 190 },
  table: { schema: 'mgt', name: 'vehicle_task' },
  primaryKey: 'id',
  fields: [
    autoId(),
    ...EXIT_SHIFT_ON_DATE,
    {
      kind: 'ref',
      name: 'vehicle_id',
      label: 'Транспортное средство',
      required: true,
      target: 'vehicles',
      valueField: 'id',
      valueType: 'int',
      displayField: ['depot_number', 'state_number'],
    },
    {
      kind: 'ref',
      name: 'driver_id',
      label: 'Водитель',
      required: true,
      target: 'driver',
      valueField: 'driver_id',
      valueType: 'int',
      displayField: ['last_name', 'first_name', 'middle_name'],
    },
  ],
  defaultSort: { field: 'id', order: 'DESC' },
  import: {
    headers: ['date', 'route_number', 'grafic', 'depot_number', 'start_time', 'end_time'],
    example: ['2025-06-02', '1', '1', '1001', '06:00', '14:00'],
    mode: 'procedure',
    endpoint: 'appoint-vehicles-to-route',
    headerOptional: true,
  },
  exportHeaders: ['id', 'date', 'RaspVariant_id', 'graph', 'smena', 'vehicle_id', 'driver_id'],
  recordExample: ['', '2025-06-02', '1', '1', '1', '1', '1'],
});
