import { defineHandbook } from '../src/shared/handbooks/types';
import { EXIT_SHIFT_ON_DATE, autoId } from './common';

/**
 * Replace_Vehicle: from starttime on that date, replace_vehicle_id runs the exit/shift assigned to
 * vehicle_id. Import (hidden in the interface, the API works) merges on date, variant, exit, shift and
 * replaced vehicle: a second replacement of the same vehicle updates the first.
 */
export default defineHandbook({
  type: 'replacevehicle',
  title: 'Замена ТС',
  titleEn: 'Vehicle replacement',
  section: { onByDefault: true, menuOrder: 200 },
  table: { schema: 'mgt', name: 'replace_vehicle' },
  primaryKey: 'id',
  fields: [
    autoId(),
    ...EXIT_SHIFT_ON_DATE,
    {
      kind: 'ref',
      name: 'vehicle_id',
      label: 'Заменяемое ТС',
      required: true,
      target: 'vehicles',
      valueField: 'id',
      valueType: 'int',
      displayField: ['depot_number', 'state_number'],
    },
    {
      kind: 'ref',
      name: 'replace_vehicle_id',
      label: 'ТС на замену',
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
    { kind: 'minutes', name: 'starttime', label: 'Время замены', required: true },
  ],
  defaultSort: { field: 'id', order: 'DESC' },
  import: {
    headers: ['date', 'RaspVariant_id', 'graph', 'smena', 'vehicle_id', 'replace_vehicle_id', 'driver_id', 'starttime'],
    example: ['2025-06-02', '1', '1', '1', '1', '2', '1', '10:30'],
    mode: 'merge',
    keys: ['date', 'RaspVariant_id', 'graph', 'smena', 'vehicle_id'],
    hidden: true,
  },
});
