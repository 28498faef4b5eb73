import { useState } from 'react';
import {
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  LinearProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { Title } from 'react-admin';
import { formatDateTime, formatNumber } from '../../shared/format';
import { TERMINAL_PARAMETERS } from '../../shared/equipment/parameters';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useRights } from '../../web/components/useRights';
import { useT } from '../../web/i18n/translate';
import { refreshQueries, useApiQuery } from '../../web/providers/queries';
import { showMessage } from '../../web/stores/messageStore';
import { ConfigurationDialog, type ConfigurationDialogMode } from './ConfigurationDialog';
import type { ConfigurationRow, FleetShareRow } from '../../shared/equipment/api';
import { configurations, deleteConfiguration, fleetShare } from './equipmentApi';

const PATH = '/mnt-configuration/configurations';

/** The share of the fleet on each configuration version, as bars. */
function FleetShare({ rows }: { rows: FleetShareRow[] }) {
  const t = useT();
  return (
    <Card variant="outlined" data-testid="fleet-share">
      <CardContent>
        <Typography variant="subtitle1" gutterBottom>
          {t('equipment.configurations.fleetShare')}
        </Typography>
        <Stack spacing={1}>
          {rows.map((row) => (
            <Box key={row.configuration_id ?? 0}>
              <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
                <Typography variant="body2">{row.label}</Typography>
                <Typography variant="body2">
                  {formatNumber(row.vehicles)} · {formatNumber(row.share, 1)} %
                </Typography>
              </Stack>
              <LinearProgress variant="determinate" value={Math.min(100, row.share)} />
            </Box>
          ))}
        </Stack>
      </CardContent>
    </Card>
  );
}

const summary = (row: ConfigurationRow) =>
  TERMINAL_PARAMETERS.filter(
    (p) => row.parameters[p.key] !== undefined && ['serverHost', 'serverPort', 'apn', 'reportIntervalMoving'].includes(p.key),
  )
    .map((p) => String(row.parameters[p.key]))
    .join(' · ');

/** /mnt-configuration/configurations (code 32): every configuration version, the fleet on each, create, edit a draft, new version. */
export default function ConfigurationsScreen() {
  const t = useT();
  const rights = useRights(PATH);
  const list = useApiQuery(['equipment', 'configurations'], () => configurations());
  const { data: share = [] } = useApiQuery(['equipment', 'fleet-share'], () => fleetShare());
  const rows = list.data ?? [];
  const [dialog, setDialog] = useState<ConfigurationDialogMode | null>(null);
  const [deleting, setDeleting] = useState<ConfigurationRow | null>(null);
  // a saved or deleted version changes the list, the rollout form's choices and the fleet's shares
  const load = () => void refreshQueries(['equipment']);

  return (
    <Box sx={{ p: 2 }}>
      <Title title={t('equipment.configurations.title')} />
      <Stack direction={{ xs: 'column', xl: 'row' }} spacing={2} sx={{ alignItems: { xs: 'stretch', xl: 'flex-start' } }}>
        <Box sx={{ flex: 2, minWidth: 0 }}>
          <Stack direction="row" spacing={1} sx={{ mb: 1 }}>
            {rights.create && (
              <Button variant="contained" onClick={() => setDialog({ kind: 'create' })} data-testid="configuration-create">
                {t('equipment.configurations.create')}
              </Button>
            )}
          </Stack>
          <TableContainer>
            <Table size="small" data-testid="configurations-table">
              <TableHead>
                <TableRow>
                  <TableCell>{t('equipment.configurations.name')}</TableCell>
                  <TableCell>{t('equipment.configurations.version')}</TableCell>
                  <TableCell>{t('equipment.configurations.parameters')}</TableCell>
                  <TableCell>{t('equipment.configurations.vehicles')}</TableCell>
                  <TableCell>{t('equipment.configurations.created')}</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((row) => (
                  <TableRow key={row.id} data-testid={`configuration-${row.name}-v${row.version}`}>
                    <TableCell>{row.name}</TableCell>
                    <TableCell>
                      v{row.version}{' '}
                      {row.locked_at ? (
                        <Chip size="small" label={t('equipment.configurations.locked')} color="primary" variant="outlined" />
                      ) : (
                        <Chip size="small" label={t('equipment.configurations.draft')} />
                      )}
                    </TableCell>
                    <TableCell sx={{ maxWidth: 320 }}>{summary(row)}</TableCell>
                    <TableCell>{formatNumber(row.vehicles)}</TableCell>
                    <TableCell>
                      {formatDateTime(row.created_at)}
                      {row.created_by ? ` · ${row.created_by}` : ''}
                    </TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {rights.update && !row.locked_at && (
                        <Button size="small" onClick={() => setDialog({ kind: 'edit', row })}>
                          {t('equipment.configurations.edit')}
                        </Button>
                      )}
                      {rights.create && (
                        <Button size="small" onClick={() => setDialog({ kind: 'version', row })}>
                          {t('equipment.configurations.newVersion')}
                        </Button>
                      )}
                      {rights.delete && !row.locked_at && (
                        <Button size="small" color="error" onClick={() => setDeleting(row)}>
                          {t('equipment.configurations.delete')}
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
                {(list.isError || (list.isSuccess && !rows.length)) && (
                  <TableRow>
                    <TableCell colSpan={6}>{t(list.isError ? 'loadFailed' : 'equipment.configurations.empty')}</TableCell>
                  </TableRow>
                )}
              </TableBody>
            </Table>
          </TableContainer>
        </Box>
        <Box sx={{ flex: 1, minWidth: 280, maxWidth: { xs: 640, xl: 'none' } }}>
          <FleetShare rows={share} />
        </Box>
      </Stack>
      {dialog && (
        <ConfigurationDialog
          mode={dialog}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            load();
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        message={t('equipment.configurations.confirmDelete', { name: deleting?.name ?? '' })}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          deleteConfiguration(deleting.id).then(
            () => {
              showMessage(t('equipment.configurations.deleted'), 'success');
              load();
            },
            () => undefined,
          );
          setDeleting(null);
        }}
      />
    </Box>
  );
}
