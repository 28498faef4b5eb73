import { Box, Tooltip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { showValue } from '../../shared/format';
import { cellText } from '../../shared/reports/cells';
import type { ReportColumn } from '../../shared/reports/types';
import { reportExtensions } from './reportExtensions';
import { detailFields, detailValuesPrefix } from '../../shared/reports/journalEvents';

type Row = Record<string, unknown>;
type Translate = ReturnType<typeof useTranslate>;

const JSON_PREVIEW = 80;
const mono = { fontFamily: 'monospace', fontSize: '0.75rem' } as const;

/** An event's details as labelled fields, one a line. */
function DetailFields({ value, labels, translate }: { value: unknown; labels: string; translate: Translate }) {
  const fields = detailFields(
    value,
    (key) => translate(`${labels}.${key}`, { _: key }),
    undefined,
    (key, code) => translate(`${detailValuesPrefix(labels)}.${key}.${code}`, { _: code }),
  );
  return (
    <Box component="span" data-testid="event-details" sx={{ display: 'inline-flex', flexDirection: 'column', fontSize: '0.8rem' }}>
      {fields.map((field, i) => (
        <span key={i}>
          {field.label ? (
            <>
              <b>{field.label}:</b> {field.value}
            </>
          ) : (
            field.value
          )}
        </span>
      ))}
    </Box>
  );
}

/** One cell of a report's table by its column: special, enum label, JSON preview, or the shared format. */
export function ReportCell({ column, row }: { column: ReportColumn; row: Row }) {
  const translate = useTranslate();
  const value = row[column.name];
  if (value === null || value === undefined || value === '') return null;
  const special = column.cell ? reportExtensions.cells[column.cell] : undefined;
  if (special) return <>{special(value, row, translate)}</>;
  switch (column.type) {
    case 'enum':
      return <>{column.labels ? translate(`${column.labels}.${String(value)}`, { _: String(value) }) : String(value)}</>;
    case 'json': {
      if (column.labels) return <DetailFields value={value} labels={column.labels} translate={translate} />;
      const text = showValue(value);
      return text.length > JSON_PREVIEW ? (
        <Tooltip title={<pre style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{JSON.stringify(value, null, 2)}</pre>}>
          <Box component="span" sx={mono}>{`${text.slice(0, JSON_PREVIEW)}…`}</Box>
        </Tooltip>
      ) : (
        <Box component="span" sx={mono}>
          {text}
        </Box>
      );
    }
    case 'datetime':
      return (
        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
          {cellText(column, value)}
        </Box>
      );
    default:
      return <>{cellText(column, value)}</>;
  }
}

export const isNumeric = (column: ReportColumn) => column.type === 'number' || column.type === 'integer';
export const columnLabel = (labels: string, column: ReportColumn) => column.label ?? `${labels}.${column.name}`;
