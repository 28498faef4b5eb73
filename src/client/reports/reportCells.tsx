import { Box, LinearProgress, Tooltip } from '@mui/material';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router';
import { rateColor } from '../../shared/bc/rate';
import { getSession } from '../../web/stores/sessionStore';
import { cellText } from '../../shared/reports/cells';
import { detailFields } from '../../shared/reports/journalEvents';
import type { ReportColumn, SpecialCell } from '../../shared/reports/types';
import { actionKey, objectKey } from '../journals/journalFormat';
import { showValue } from '../journals/jsonDiff';

type Row = Record<string, unknown>;
type Translate = ReturnType<typeof useTranslate>;

const JSON_PREVIEW = 80;
const mono = { fontFamily: 'monospace', fontSize: '0.75rem' } as const;

/** Cells with a behaviour of their own: a translated user action, a journaled object with its number, bc's rate and order link. */
const SPECIAL: Record<SpecialCell, (value: unknown, row: Row, translate: Translate) => ReactNode> = {
  action: (value, _row, translate) => {
    const key = actionKey(String(value));
    return key ? translate(key, { _: String(value) }) : String(value);
  },
  object: (value, row, translate) => {
    const kind = objectKey(String(value));
    const name = kind ? translate(kind.key, { _: String(value) }) : String(value);
    const sub = kind?.sub ? `: ${translate(`menu.system.${kind.sub}`, { _: kind.sub })}` : '';
    const id = row.object_id != null ? ` № ${String(row.object_id)}` : '';
    return `${name}${sub}${id}`;
  },
  // ticket control: violations per 100 checked on the spec's gradient; an order opening its report
  rate: (value) => (
    <Box component="span" data-testid="rate-cell" sx={{ display: 'inline-block', minWidth: 48, px: 1, borderRadius: 1, textAlign: 'right', color: '#000', bgcolor: rateColor(Number(value), getSession().user?.settings.bc?.rateRedAt) }}>
      {Number(value).toLocaleString('ru-RU', { minimumFractionDigits: 1, maximumFractionDigits: 1 })}
    </Box>
  ),
  taskLink: (value, row) => <Link to={`/bc/resultuser/${String(row.task_id)}`}>{String(value)}</Link>,
  // A video request's status (performed reads as viewed once played), its percent while downloading, its reason.
  videoStatus: (value, row, translate) => {
    const label = translate(`video.statuses.${String(value)}`, { _: String(value) });
    const downloading = String(value) === '4';
    const text = downloading ? `${label} ${Math.round(Number(row.progress ?? 0))}%` : label;
    return (
      <Box component="span" data-testid="video-status" data-status={String(value)} sx={{ display: 'inline-block', minWidth: 110 }}>
        {row.reason ? (
          <Tooltip title={String(row.reason)}>
            <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>{text}<InfoOutlinedIcon sx={{ fontSize: 15 }} color="action" /></Box>
          </Tooltip>
        ) : text}
        {downloading && <LinearProgress variant="determinate" value={Number(row.progress ?? 0)} sx={{ mt: 0.5 }} />}
      </Box>
    );
  },
};

/** An event's details as labelled fields, one a line. */
function DetailFields({ value, labels, translate }: { value: unknown; labels: string; translate: Translate }) {
  const fields = detailFields(value, (key) => translate(`${labels}.${key}`, { _: key }));
  return (
    <Box component="span" data-testid="event-details" sx={{ display: 'inline-flex', flexDirection: 'column', fontSize: '0.8rem' }}>
      {fields.map((field, i) => <span key={i}>{field.label ? <><b>{field.label}:</b> {field.value}</> : field.value}</span>)}
    </Box>
  );
}

/** One cell of a report's table by its column: special, enum label, JSON preview, or the shared format. */
export function ReportCell({ column, row }: { column: ReportColumn; row: Row }) {
  const translate = useTranslate();
  const value = row[column.name];
  if (value === null || value === undefined || value === '') return null;
  if (column.cell) return <>{SPECIAL[column.cell](value, row, translate)}</>;
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
      ) : <Box component="span" sx={mono}>{text}</Box>;
    }
    case 'datetime':
      return <Box component="span" sx={{ whiteSpace: 'nowrap' }}>{cellText(column, value)}</Box>;
    default:
      return <>{cellText(column, value)}</>;
  }
}

export const isNumeric = (column: ReportColumn) => column.type === 'number' || column.type === 'integer';
export const columnLabel = (labels: string, column: ReportColumn) => column.label ?? `${labels}.${column.name}`;
