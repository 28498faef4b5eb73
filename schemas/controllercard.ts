import { defineHandbook } from '../src/shared/handbooks/types';

/** ControllerCard: controllers' service cards and whom they are issued to. */
export default defineHandbook({
  type: 'controllercard',
  title: 'Карты контролёров',
  titleEn: 'Controller cards',
  section: { onByDefault: false, menuOrder: 370 },
  table: { schema: 'cat', name: 'controller_card' },
  primaryKey: 'card_id',
  fields: [
    { kind: 'int', name: 'card_id', label: 'ID', auto: true, readOnly: true },
    { kind: 'text', name: 'card_number', label: 'Номер карты', required: true },
    {
      kind: 'ref',
      name: 'worker_id',
      label: 'Сотрудник',
      target: 'driver',
      valueField: 'driver_id',
      valueType: 'int',
      displayField: ['last_name', 'first_name', 'middle_name'],
    },
  ],
  defaultSort: { field: 'card_id', order: 'DESC' },
  import: {
    headers: ['card_id', 'card_number', 'worker_id'],
    example: ['', '0000123456', '1'],
    mode: 'upsert',
  },
});
