import { defineHandbook } from '../src/shared/handbooks/types';
import { autoId } from './common';

/**
 * DevCamera: cameras of a recorder (and so of its vehicle), one per camera type position. The list offers
 * the add-vehicle widget: POST /api/widget/addcamersvehicle adds the standard set to chosen vehicles.
 */
export default defineHandbook({
  type: 'camera',
  title: 'Камеры',
  titleEn: 'Cameras',
  section: { onByDefault: false, menuOrder: 300 },
  table: { schema: 'mgt', name: 'dev_camera' },
  primaryKey: 'id',
  fields: [
    autoId(),
    { kind: 'int', name: 'index', label: 'Номер', required: true, min: 0, max: 2147483647 },
    {
      kind: 'ref',
      name: 'dvr_id',
      label: 'Видеорегистратор',
      required: true,
      target: 'dvr',
      valueField: 'id',
      valueType: 'int',
      displayField: ['serial_number', 'ip'],
    },
    {
      kind: 'ref',
      name: 'camera_addr',
      label: 'Тип камеры',
      required: true,
      target: 'cameratype',
      valueField: 'ip',
      valueType: 'int',
      displayField: 'title',
    },
  ],
  defaultSort: { field: 'id', order: 'DESC' },
  import: {
    headers: ['id', 'index', 'dvr_id', 'camera_addr'],
    example: ['', '1', '1', '1'],
    mode: 'upsert',
  },
  widgets: ['addCamerasToVehicle'],
});
