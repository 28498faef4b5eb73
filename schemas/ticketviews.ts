import { defineHandbook } from '../src/shared/handbooks/types';

/** TicketView: kinds of tickets (single, travel card...), grouping ticket types. */
export default defineHandbook({
  type: 'ticketviews',
  title: 'Виды билетов',
  titleEn: 'Ticket views',
  section: { onByDefault: true, menuOrder: 210 },
  table: { schema: 'cat', name: 'ticket_view' },
  primaryKey: 'ticket_kind_id',
  fields: [
    { kind: 'int', name: 'ticket_kind_id', label: 'ID', auto: true, readOnly: true },
    { kind: 'text', name: 'ticket_kind_name', label: 'Наименование', required: true },
  ],
  defaultSort: { field: 'ticket_kind_id', order: 'DESC' },
  import: {
    headers: ['ticket_kind_id', 'ticket_kind_name'],
    example: ['', 'Проездной'],
    mode: 'upsert',
  },
});
