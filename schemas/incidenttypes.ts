import { defineHandbook } from '../src/shared/handbooks/types';
import { DEFAULT_COLOR, autoId } from './common';

/** Incident types of the driver-assistance system (ADAS): code, names and map colour. */
export default defineHandbook({
  type: 'incidenttypes',
  title: 'Типы инцидентов',
  titleEn: 'Incident types',
  section: { onByDefault: true, menuOrder: 250 },
  table: { schema: 'adas', name: 'incident_type' },
  primaryKey: 'id',
  fields: [
    autoId(),
    { kind: 'int', name: 'incident_type', label: 'Код инцидента', required: true, min: 0, maxDigits: 8 },
    { kind: 'text', name: 'incident_name', label: 'Наименование', required: true, maxLength: 256 },
    { kind: 'text', name: 'incident_short_name', label: 'Краткое наименование', maxLength: 32 },
    { kind: 'color', name: 'incident_color', label: 'Цвет', required: true, default: DEFAULT_COLOR },
  ],
  defaultSort: { field: 'id', order: 'DESC' },
  import: {
    headers: ['id', 'incident_type', 'incident_name', 'incident_short_name', 'incident_color'],
    example: ['', '901', 'Отвлечение водителя', 'Отвлечение', '#ff8c00'],
    mode: 'upsert',
  },
  note: 'Источник данных — отчётная система',
});
