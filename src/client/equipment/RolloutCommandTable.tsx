import { useState } from 'react';
import {
  Box,
  Chip,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { formatDateTime } from '../../shared/format';
import { COMMAND_STATUS_CODES } from '../../shared/equipment/commandStatus';
import { useT } from '../../web/i18n/translate';
import { useApiQuery } from '../../web/providers/queries';
import { COMMAND_STATUS_COLOR } from './commandStatusColor';
import { rolloutCommands } from './equipmentApi';

const PAGE = 50;

/**
 * The commands of one rollout per terminal, by status; asked again every `refreshMs` (given while the rollouts are live).
 * Its key lies under the group's rollouts, so re-asking them after a change re-asks this page too.
 */
export function RolloutCommandTable({ groupId, rolloutId, refreshMs }: { groupId: number; rolloutId: number; refreshMs?: number }) {
  const t = useT();
  const [status, setStatus] = useState<number | ''>('');
  const [page, setPage] = useState(0);
  const { data = { total: 0, list: [] }, isError } = useApiQuery(
    ['equipment', 'rollouts', groupId, 'commands', rolloutId, status, page],
    () => rolloutCommands(rolloutId, { status: status === '' ? undefined : status, offset: page * PAGE, limit: PAGE }),
    { keepPrevious: true, refetchInterval: refreshMs },
  );
  return (
    <Box>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', my: 1 }}>
        <Typography variant="subtitle1">{t('equipment.rollout.commands')}</Typography>
        <TextField
          select
          size="small"
          label={t('equipment.rollout.status')}
          value={status}
          onChange={(e) => {
            setStatus(e.target.value === '' ? '' : Number(e.target.value));
            setPage(0);
          }}
          sx={{ minWidth: 220 }}
          slotProps={{ htmlInput: { 'data-testid': 'command-status-filter' } }}
        >
          <MenuItem value="">{t('equipment.rollout.all')}</MenuItem>
          {COMMAND_STATUS_CODES.map((code) => (
            <MenuItem key={code} value={code}>
              {t(`equipment.commandStatuses.${code}`)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <Table size="small" data-testid="commands-table">
        <TableHead>
          <TableRow>
            <TableCell>{t('equipment.rollout.vehicle')}</TableCell>
            <TableCell>{t('equipment.rollout.depot')}</TableCell>
            <TableCell>{t('equipment.rollout.status')}</TableCell>
            <TableCell>{t('equipment.rollout.reason')}</TableCell>
            <TableCell>{t('equipment.rollout.attempts')}</TableCell>
            <TableCell>{t('equipment.rollout.changed')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {data.list.map((c) => (
            <TableRow key={c.id} data-testid="command-row">
              <TableCell>
                {c.depot_number ?? c.vehicle_id}
                {c.state_number ? ` · ${c.state_number}` : ''}
              </TableCell>
              <TableCell>{c.depot_name ?? ''}</TableCell>
              <TableCell>
                <Chip size="small" color={COMMAND_STATUS_COLOR[c.status]} label={t(`equipment.commandStatuses.${c.status}`)} />
              </TableCell>
              <TableCell>
                {c.reason ?? ''}
                {c.retry_at ? ` (${formatDateTime(c.retry_at)})` : ''}
              </TableCell>
              <TableCell>{c.attempts}</TableCell>
              <TableCell>{formatDateTime(c.status_at)}</TableCell>
            </TableRow>
          ))}
          {isError && (
            <TableRow>
              <TableCell colSpan={6} sx={{ color: 'error.main' }}>
                {t('loadFailed')}
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
      <TablePagination
        component="div"
        count={data.total}
        page={page}
        rowsPerPage={PAGE}
        rowsPerPageOptions={[PAGE]}
        onPageChange={(_, p) => setPage(p)}
      />
    </Box>
  );
}
