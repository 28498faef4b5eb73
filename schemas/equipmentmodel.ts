import { defineHandbook } from '../src/shared/handbooks/types';

/** ControllerEquipmentType: models of controllers' hand-held terminals. */
export default defineHandbook({
  type: 'equipmentmodel',
  title: 'Модели оборудования контролёров',
  titleEn: 'Controller equipment models',
  section: { onByDefault: false, menuOrder: 350 },
  table: { schema: 'cat', name: 'controller_equipment_type' },
  primaryKey: 'pu_model_id',
  fields: [
    { kind: 'int', name: 'pu_model_id', label: 'ID', auto: true, readOnly: true },
    { kind: 'text', name: 'pu_model_name', label: 'Наименование', required: true },
  ],
  defaultSort: { field: 'pu_model_id', order: 'DESC' },
  import: {
    headers: ['pu_model_id', 'pu_model_name'],
    example: ['', 'Терминал ПУ-7'],
    mode: 'upsert',
  },
});
