import { defineHandbook } from '../src/shared/handbooks/types';

/** TicketType: ticket types counted in ticket control (controller report), by kind. */
export default defineHandbook({
  type: 'tickettypes',
  title: 'Типы билетов',
  titleEn: 'Ticket types',
  section: { onByDefault: true, menuOrder: 220 },
  table: { schema: 'cat', name: 'ticket_type' },
  primaryKey: 'ticket_type_id',
  fields: [
    { kind: 'int', name: 'ticket_type_id', label: 'ID', auto: true, readOnly: true },
    { kind: 'text', name: 'ticket_type_code', label: 'Код', required: true },
    { kind: 'text', name: 'ticket_type_name', label: 'Наименование', required: true },
    {
      kind: 'ref',
      name: 'ticket_kind_id',
      label: 'Вид билета',
      target: 'ticketviews',
      valueField: 'ticket_kind_id',
      valueType: 'int',
      displayField: 'ticket_kind_name',
    },
  ],
  defaultSort: { field: 'ticket_type_id', order: 'DESC' },
  import: {
    headers: ['ticket_type_id', 'ticket_type_code', 'ticket_type_name', 'ticket_kind_id'],
    example: ['', 'EB30', 'Единый на 30 дней', '1'],
    mode: 'upsert',
  },
});
