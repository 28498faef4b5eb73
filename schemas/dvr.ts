import { defineHandbook } from '../src/shared/handbooks/types';
import { autoId } from './common';

/**
 * Video recorders (dvr) on vehicles. Media-server use is a dependent flag: on when media-server address,
 * port, login and password are all filled, off otherwise. Cameras are edited in a modal list of camera
 * types (widget dvrCameras: mgt.dev_camera rows).
 */
export default defineHandbook({
  type: 'dvr',
  title: 'Видеорегистраторы',
  titleEn: 'Video recorders',
  section: { onByDefault: true, menuOrder: 50 },
  table: { schema: 'mgt', name: 'dvr' },
  primaryKey: 'id',
  fields: [
    autoId(),
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
      name: 'dvr_type_id',
      label: 'Тип видеорегистратора',
      target: 'dvrtype',
      valueField: 'id',
      valueType: 'int',
      displayField: 'name',
    },
    { kind: 'text', name: 'serial_number', label: 'Серийный номер', maxLength: 255 },
    { kind: 'ip', name: 'ip', label: 'IP-адрес', octets: true },
    { kind: 'port', name: 'port', label: 'Порт' },
    { kind: 'text', name: 'login', label: 'Логин', maxLength: 255 },
    { kind: 'text', name: 'password', label: 'Пароль', maxLength: 255, secret: true },
    { kind: 'ip', name: 'media_server_ip', label: 'IP-адрес медиасервера', octets: true, hidden: true },
    { kind: 'port', name: 'media_server_port', label: 'Порт медиасервера', hidden: true },
    { kind: 'text', name: 'media_server_login', label: 'Логин медиасервера', maxLength: 255, hidden: true },
    { kind: 'text', name: 'media_server_password', label: 'Пароль медиасервера', maxLength: 255, secret: true },
    {
      kind: 'boolean',
      name: 'is_media_server_use',
      label: 'Использовать медиасервер',
      default: false,
      setWhenFilled: ['media_server_ip', 'media_server_port', 'media_server_login', 'media_server_password'],
    },
    { kind: 'widget', name: 'cameras', label: 'Камеры', widget: 'dvrCameras' },
  ],
  defaultSort: { field: 'id', order: 'DESC' },
  import: {
    headers: [
      'id',
      'vehicle_id',
      'dvr_type_id',
      'serial_number',
      'ip',
      'port',
      'login',
      'password',
      'media_server_ip',
      'media_server_port',
      'media_server_login',
      'media_server_password',
    ],
    example: ['', '1', '', 'DVR-000123', '10.20.30.40', '8080', 'admin', 'secret1', '', '', '', ''],
    mode: 'upsert',
  },
  note: 'Источник данных — отчётная система',
});
