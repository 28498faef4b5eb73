import { defineHandbook } from '../src/shared/handbooks/types';
import { DO_NOT_UPDATE, autoId } from './common';

/** Vehicles: the fleet. peer_address is the terminal's int8 address, text end to end (beyond a JS number). */
export default defineHandbook({
  type: 'vehicles',
  title: 'Транспортные средства',
  table: { schema: 'mgt', name: 'vehicles' },
  primaryKey: 'id',
  fields: [
    autoId(),
    { kind: 'ref', name: 'depot_id', label: 'Филиал', target: 'park', valueField: 'depot_id', valueType: 'int', displayField: 'depot_name' },
    { kind: 'ref', name: 'vehicle_type_id', label: 'Вид транспорта', target: 'vehicletype', valueField: 'id', valueType: 'int', displayField: 'title' },
    { kind: 'text', name: 'model', label: 'Модель', maxLength: 50 },
    { kind: 'ref', name: 'capacity_type_id', label: 'Вместимость', target: 'capacitytype', valueField: 'id', valueType: 'int', displayField: 'title' },
    { kind: 'int', name: 'depot_number', label: 'Гаражный номер', required: true, min: 0, max: 2147483647 },
    { kind: 'text', name: 'state_number', label: 'Госномер', maxLength: 12 },
    { kind: 'text', name: 'vin', label: 'VIN', maxLength: 25 },
    { kind: 'bigint', name: 'peer_address', label: 'Адрес терминала', min: '0', max: '9223372036854775807' },
    { kind: 'datetime', name: 'update_date', label: 'Дата обновления', readOnly: true, setOnSave: true },
    DO_NOT_UPDATE,
  ],
  defaultSort: { field: 'id', order: 'DESC' },
  import: {
    headers: ['id', 'depot_id', 'vehicle_type_id', 'model', 'capacity_type_id', 'depot_number', 'state_number', 'vin', 'peer_address', 'do_not_update'],
    example: ['', '1', '1', 'ЛиАЗ-5292.65', '1', '17001', 'В123ОР178', 'XTY529265N0000001', '9223372036854775807', 'true'],
    mode: 'upsert',
  },
  mobile: { pageSize: 10 },
  note: 'Источник данных — отчётная система',
});
