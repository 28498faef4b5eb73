import { defineHandbook } from '../src/shared/handbooks/types';
import { autoId } from './common';

/**
 * DevMNT: on-board terminals. msip/msport/mslogin/mspassword address a media server; msuse follows them
 * (on when all four are filled). The media-server IP is checked octet by octet (spec section 5).
 */
export default defineHandbook({
  type: 'mnt',
  title: 'МНТ',
  titleEn: 'MNT',
  section: { onByDefault: false, menuOrder: 270 },
  table: { schema: 'mgt', name: 'dev_mnt' },
  primaryKey: 'id',
  fields: [
    autoId(),
    { kind: 'ip', name: 'ip', label: 'IP-адрес', required: true },
    {
      kind: 'ref',
      name: 'DevMNTType_id',
      label: 'Тип МНТ',
      required: true,
      target: 'mnttype',
      valueField: 'id',
      valueType: 'int',
      displayField: 'name',
    },
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
    { kind: 'bigint', name: 'peer_address', label: 'Адрес терминала', required: true, min: '0', max: '9223372036854775807' },
    { kind: 'text', name: 'serial_number', label: 'Серийный номер' },
    { kind: 'text', name: 'login', label: 'Логин' },
    { kind: 'text', name: 'password', label: 'Пароль', secret: true },
    { kind: 'port', name: 'port', label: 'Порт' },
    { kind: 'ip', name: 'msip', label: 'IP-адрес медиасервера', octets: true, hidden: true },
    { kind: 'port', name: 'msport', label: 'Порт медиасервера', hidden: true },
    { kind: 'text', name: 'mslogin', label: 'Логин медиасервера', hidden: true },
    { kind: 'text', name: 'mspassword', label: 'Пароль медиасервера', secret: true },
    {
      kind: 'boolean',
      name: 'msuse',
      label: 'Использовать медиасервер',
      default: false,
      setWhenFilled: ['msip', 'msport', 'mslogin', 'mspassword'],
    },
  ],
  defaultSort: { field: 'id', order: 'DESC' },
  import: {
    headers: [
      'id',
      'ip',
      'DevMNTType_id',
      'vehicle_id',
      'peer_address',
      'serial_number',
      'login',
      'password',
      'port',
      'msip',
      'msport',
      'mslogin',
      'mspassword',
    ],
    example: ['', '10.1.2.3', '1', '1', '700000000001', 'MNT-0001', 'admin', 'secret1', '7000', '', '', '', ''],
    mode: 'upsert',
  },
});
