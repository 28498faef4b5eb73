import { defineHandbook } from '../src/shared/handbooks/types';
import { autoId } from './common';

/** DevGSM: GSM modems of vehicles with their modem command and PPP settings. */
export default defineHandbook({
  type: 'gsm',
  title: 'GSM-модемы',
  titleEn: 'GSM modems',
  section: { onByDefault: false, menuOrder: 290 },
  table: { schema: 'mgt', name: 'dev_gsm' },
  primaryKey: 'id',
  fields: [
    autoId(),
    { kind: 'text', name: 'name', label: 'Наименование' },
    {
      kind: 'list',
      name: 'ModuleEnabled',
      label: 'Модуль включён',
      required: true,
      valueType: 'int',
      options: [
        { value: 1, label: 'Вкл' },
        { value: 0, label: 'Выкл' },
      ],
    },
    {
      kind: 'ref',
      name: 'vehicle_id',
      label: 'Транспортное средство',
      target: 'vehicles',
      valueField: 'id',
      valueType: 'int',
      displayField: ['depot_number', 'state_number'],
    },
    { kind: 'text', name: 'device_cmd', label: 'Командный порт', required: true },
    { kind: 'text', name: 'device_ppp', label: 'Порт PPP', required: true },
  ],
  defaultSort: { field: 'id', order: 'DESC' },
  import: {
    headers: ['id', 'name', 'ModuleEnabled', 'vehicle_id', 'device_cmd', 'device_ppp'],
    example: ['', 'Модем 1', '1', '1', '/dev/ttyUSB2', '/dev/ttyUSB3'],
    mode: 'upsert',
  },
});
