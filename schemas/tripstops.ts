import { defineHandbook } from '../src/shared/handbooks/types';
import { autoId } from './common';

/** Trip_Stops: ordered stops of a trip; kkp marks the control points at the start (B) and end (E). */
export default defineHandbook({
  type: 'tripstops',
  title: 'Остановки рейсов',
  titleEn: 'Trip stops',
  section: { onByDefault: true, menuOrder: 150 },
  table: { schema: 'mgt', name: 'trip_stops' },
  primaryKey: 'id',
  fields: [
    autoId(),
    {
      kind: 'ref',
      name: 'trip_id',
      label: 'Рейс',
      required: true,
      target: 'trips',
      valueField: 'id',
      valueType: 'int',
      displayField: ['id', 'race_type'],
    },
    {
      kind: 'ref',
      name: 'stop_id',
      label: 'Остановка',
      required: true,
      target: 'stops',
      valueField: 'stop_id',
      valueType: 'int',
      displayField: 'stop_name',
    },
    { kind: 'int', name: 'stop_sequence', label: 'Порядковый номер', required: true, min: 0, max: 10000 },
    {
      kind: 'list',
      name: 'kkp',
      label: 'Контрольный пункт',
      valueType: 'text',
      options: [
        { value: null, label: '—' },
        { value: 'B', label: 'Начало рейса' },
        { value: 'E', label: 'Конец рейса' },
      ],
    },
  ],
  defaultSort: { field: 'id', order: 'DESC' },
  import: {
    headers: ['id', 'trip_id', 'stop_id', 'stop_sequence', 'kkp'],
    example: ['', '1', '1', '99', ''],
    mode: 'upsert',
  },
});
