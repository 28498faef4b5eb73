import { defineHandbook } from '../src/shared/handbooks/types';
import { autoId } from './common';

/** TransportType: bus, trolleybus, tram...; routes link to it by `note` (the type code). */
export default defineHandbook({
  type: 'vehicletype',
  title: 'Виды транспорта',
  titleEn: 'Transport types',
  section: { onByDefault: true, menuOrder: 70 },
  table: { schema: 'mgt', name: 'transport_type' },
  primaryKey: 'id',
  fields: [
    autoId(),
    { kind: 'text', name: 'title', label: 'Наименование', required: true },
    { kind: 'text', name: 'note', label: 'Код', required: true },
  ],
  defaultSort: { field: 'id', order: 'DESC' },
  import: {
    headers: ['id', 'title', 'note'],
    example: ['', 'Электробус', 'E'],
    mode: 'upsert',
  },
});
