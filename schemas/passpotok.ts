import { defineHandbook } from '../src/shared/handbooks/types';
import { autoId } from './common';

/** DevPasspotok: passenger counters above the doors of a vehicle. */
export default defineHandbook({
  type: 'passpotok',
  title: 'Счётчики пассажиропотока',
  titleEn: 'Passenger counters',
  section: { onByDefault: false, menuOrder: 280 },
  table: { schema: 'mgt', name: 'dev_passpotok' },
  primaryKey: 'id',
  fields: [
    autoId(),
    { kind: 'text', name: 'name', label: 'Наименование', required: true },
    {
      kind: 'list',
      name: 'enable',
      label: 'Включён',
      valueType: 'int',
      options: [
        { value: null, label: '—' },
        { value: 1, label: 'Вкл' },
        { value: 0, label: 'Выкл' },
      ],
    },
    { kind: 'text', name: 'protocol', label: 'Протокол' },
    { kind: 'int', name: 'door_index', label: 'Номер двери', min: 0, max: 100 },
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
      kind: 'list',
      name: 'transport',
      label: 'Канал связи',
      valueType: 'text',
      options: [
        { value: null, label: '—' },
        { value: 'udp', label: 'UDP' },
        { value: 'can', label: 'CAN' },
      ],
    },
    { kind: 'ip', name: 'ip', label: 'IP-адрес' },
    { kind: 'port', name: 'port', label: 'Порт' },
    { kind: 'text', name: 'addr', label: 'Адрес на шине' },
  ],
  defaultSort: { field: 'id', order: 'DESC' },
  import: {
    headers: ['id', 'name', 'enable', 'protocol', 'door_index', 'vehicle_id', 'transport', 'ip', 'port', 'addr'],
    example: ['', 'Дверь 1', '1', 'irma', '1', '1', 'udp', '192.168.10.11', '5000', ''],
    mode: 'upsert',
  },
});
