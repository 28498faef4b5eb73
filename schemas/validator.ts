import { defineHandbook } from '../src/shared/handbooks/types';

/** Validators: ticket validators, numbered by their own id, on a vehicle linked by its depot number (spec section 3). */
export default defineHandbook({
  type: 'validator',
  title: 'Валидаторы',
  titleEn: 'Validators',
  section: { onByDefault: false, menuOrder: 310 },
  table: { schema: 'mgt', name: 'validator' },
  primaryKey: 'validator_id',
  fields: [
    { kind: 'int', name: 'validator_id', label: 'Номер валидатора', required: true, min: 0, max: 2147483647 },
    { kind: 'text', name: 'validator_name', label: 'Наименование' },
    {
      kind: 'ref',
      name: 'vehicle_id',
      label: 'Гаражный номер ТС',
      required: true,
      target: 'vehicles',
      valueField: 'depot_number',
      valueType: 'int',
      displayField: 'depot_number',
    },
  ],
  defaultSort: { field: 'validator_id', order: 'DESC' },
  import: {
    headers: ['validator_id', 'validator_name', 'vehicle_id'],
    example: ['900001', 'Валидатор у передней двери', '17001'],
    mode: 'upsert',
  },
});
