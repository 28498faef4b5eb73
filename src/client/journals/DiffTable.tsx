import { Box, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { useTranslate } from 'react-admin';
import { showValue } from '../../shared/format';
import type { DiffLine } from './jsonDiff';

const BEFORE = 'rgba(211, 47, 47, 0.08)';
const AFTER = 'rgba(46, 125, 50, 0.10)';
const mono = { fontFamily: 'monospace', fontSize: '0.75rem', wordBreak: 'break-word', verticalAlign: 'top' } as const;

/** Field | before | after, the removed side tinted red and the added side green. */
export function DiffTable({ lines }: { lines: DiffLine[] }) {
  const translate = useTranslate();
  const empty = (kind: 'added' | 'removed') => (
    <Box component="span" sx={{ color: 'text.disabled', fontStyle: 'italic' }}>
      {translate(`journals.diff.${kind}`)}
    </Box>
  );
  return (
    <Table size="small" sx={{ tableLayout: 'fixed', '& td, & th': { py: 0.5 } }} data-testid="diff-table">
      <TableHead>
        <TableRow>
          <TableCell sx={{ width: '24%' }}>{translate('journals.diff.field')}</TableCell>
          <TableCell>{translate('journals.diff.before')}</TableCell>
          <TableCell>{translate('journals.diff.after')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {lines.map((line) => (
          <TableRow key={line.path} data-kind={line.kind}>
            <TableCell sx={mono}>{line.path || '—'}</TableCell>
            <TableCell sx={{ ...mono, bgcolor: line.kind === 'removed' || line.kind === 'changed' ? BEFORE : undefined }}>
              {line.kind === 'added' ? empty('added') : showValue(line.before)}
            </TableCell>
            <TableCell sx={{ ...mono, bgcolor: line.kind === 'added' || line.kind === 'changed' ? AFTER : undefined }}>
              {line.kind === 'removed' ? empty('removed') : showValue(line.after)}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
