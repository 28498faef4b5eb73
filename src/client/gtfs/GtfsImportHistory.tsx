import { Alert, Button, Chip, Paper, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ImportRun } from '../../shared/gtfs/api';
import { formatDateTime, formatNumber } from '../../shared/format';
import { useImportHistory } from './gtfsApi';

const STATUS_COLOR: Record<ImportRun['status'], 'default' | 'success' | 'error' | 'warning' | 'info'> = {
  running: 'info',
  done: 'success',
  refused: 'error',
  cancelled: 'warning',
  failed: 'error',
};

const COLUMNS = ['id', 'started', 'finished', 'user', 'file', 'size', 'status'] as const;

/** The earlier imports, newest first; one opens to show its report. */
export function GtfsImportHistory({ selected, onOpen }: { selected: number | null; onOpen: (id: number) => void }) {
  const translate = useTranslate();
  const { data, error, isPending } = useImportHistory();
  return (
    <Paper sx={{ p: 2 }}>
      <Typography variant="subtitle1">{translate('gtfs.history')}</Typography>
      {error && (
        <Alert severity="error" data-testid="gtfs-history-error">
          {translate('gtfs.loadFailed')}
        </Alert>
      )}
      <Table size="small" data-testid="gtfs-history">
        <TableHead>
          <TableRow>
            {COLUMNS.map((c) => (
              <TableCell key={c} align={c === 'size' ? 'right' : 'left'}>
                {translate(`gtfs.columns.${c}`)}
              </TableCell>
            ))}
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {!isPending && !error && data?.length === 0 && (
            <TableRow>
              <TableCell colSpan={COLUMNS.length + 1} sx={{ color: 'text.secondary' }}>
                {translate('gtfs.noHistory')}
              </TableCell>
            </TableRow>
          )}
          {data?.map((run) => (
            <TableRow key={run.id} selected={run.id === selected} data-testid="gtfs-history-row" data-id={run.id} data-status={run.status}>
              <TableCell>{run.id}</TableCell>
              <TableCell>{formatDateTime(run.started_at)}</TableCell>
              <TableCell>{formatDateTime(run.finished_at)}</TableCell>
              <TableCell>{run.username ?? '—'}</TableCell>
              <TableCell>{run.file}</TableCell>
              <TableCell align="right">{formatNumber(run.bytes / 1024, 0)}</TableCell>
              <TableCell>
                <Chip size="small" color={STATUS_COLOR[run.status]} label={translate(`gtfs.statuses.${run.status}`)} />
              </TableCell>
              <TableCell>
                <Button size="small" onClick={() => onOpen(run.id)}>
                  {translate('gtfs.open')}
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Paper>
  );
}
