import { Box, Tooltip } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { JournalColumn } from './journalColumns';
import { actionKey, formatDateTime, objectKey } from './journalFormat';
import { showValue } from './jsonDiff';

const JSON_PREVIEW = 80;

/** One cell of a journal row, by the column's kind: time, translated action, object or event kind, JSON. */
export function JournalCell({ column }: { column: JournalColumn }) {
  const record = useRecordContext<Record<string, unknown>>();
  const translate = useTranslate();
  const value = record?.[column.source];
  if (value === null || value === undefined || value === '') return null;
  switch (column.kind) {
    case 'time':
      return <Box component="span" sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(value)}</Box>;
    case 'action': {
      const key = actionKey(String(value));
      return <>{key ? translate(key, { _: String(value) }) : String(value)}</>;
    }
    case 'kind':
      return <>{translate(`journals.kinds.${String(value)}`, { _: String(value) })}</>;
    case 'object': {
      const kind = objectKey(String(value));
      const name = kind ? translate(kind.key, { _: String(value) }) : String(value);
      const sub = kind?.sub ? `: ${translate(`menu.system.${kind.sub}`, { _: kind.sub })}` : '';
      const id = record?.object_id != null ? ` № ${String(record.object_id)}` : '';
      return <>{`${name}${sub}${id}`}</>;
    }
    case 'json': {
      const text = showValue(value);
      return text.length > JSON_PREVIEW ? (
        <Tooltip title={<pre style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{JSON.stringify(value, null, 2)}</pre>}>
          <Box component="span" sx={{ fontFamily: 'monospace', fontSize: '0.75rem' }}>{`${text.slice(0, JSON_PREVIEW)}…`}</Box>
        </Tooltip>
      ) : (
        <Box component="span" sx={{ fontFamily: 'monospace', fontSize: '0.75rem' }}>{text}</Box>
      );
    }
    default:
      return <>{showValue(value)}</>;
  }
}
