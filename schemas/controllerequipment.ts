import { defineHandbook } from '../src/shared/handbooks/types';

/** ControllerEquipment: a hand-held terminal and the employee it is issued to. */
export default defineHandbook({
  type: 'controllerequipment',
  title: 'Оборудование контролёров',
  titleEn: 'Controller equipment',
  section: { onByDefault: false, menuOrder: 360 },
  table: { schema: 'cat', name: 'controller_equipment' },
  primaryKey: 'pu_id',
  fields: [
    { kind: 'int', name: 'pu_id', label: 'ID', auto: true, readOnly: true },
    {
      kind: 'ref',
      name: 'worker_id',
      label: 'Сотрудник',
      target: 'driver',
      valueField: 'driver_id',
      valueType: 'int',
      displayField: ['last_name', 'first_name', 'middle_name'],
    },
    {
      kind: 'ref',
      name: 'pu_model_id',
      label: 'Модель',
      required: true,
      target: 'equipmentmodel',
      valueField: 'pu_model_id',
      valueType: 'int',
      displayField: 'pu_model_name',
    },
  ],
  defaultSort: { field: 'pu_id', order: 'DESC' },
  import: {
    headers: ['pu_id', 'worker_id', 'pu_model_id'],
    example: ['', '1', '1'],
    mode: 'upsert',
  },
});
