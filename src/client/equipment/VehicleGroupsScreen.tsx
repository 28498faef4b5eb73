import { useState } from 'react';
import { Box, Button, Stack, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { Title } from 'react-admin';
import { useNavigate } from 'react-router';
import { formatNumber } from '../../shared/format';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useRights } from '../../web/components/useRights';
import { useT } from '../../web/i18n/translate';
import { refreshQueries, useApiQuery } from '../../web/providers/queries';
import { showMessage } from '../../web/stores/messageStore';
import type { GroupRow } from '../../shared/equipment/api';
import { deleteGroup, groups } from './equipmentApi';
import { VehicleGroupDialog } from './VehicleGroupDialog';

const PATH = '/mnt-configuration/vehicle-groups';

/** /mnt-configuration/vehicle-groups (code 32): static and dynamic groups, their size now, their last rollout. */
export default function VehicleGroupsScreen() {
  const t = useT();
  const rights = useRights(PATH);
  const configurationRights = useRights('/mnt-configuration/configurations');
  const navigate = useNavigate();
  const list = useApiQuery(['equipment', 'groups'], () => groups());
  const rows = list.data ?? [];
  const [editing, setEditing] = useState<GroupRow | 'new' | null>(null);
  const [deleting, setDeleting] = useState<GroupRow | null>(null);
  // a saved or deleted group changes the list and what its rollout screen reads
  const load = () => void refreshQueries(['equipment']);

  return (
    <Box sx={{ p: 2 }}>
      <Title title={t('equipment.groups.title')} />
      {rights.create && (
        <Button variant="contained" sx={{ mb: 1 }} onClick={() => setEditing('new')} data-testid="group-create">
          {t('equipment.groups.create')}
        </Button>
      )}
      <Table size="small" data-testid="groups-table">
        <TableHead>
          <TableRow>
            <TableCell>{t('equipment.groups.name')}</TableCell>
            <TableCell>{t('equipment.groups.kind')}</TableCell>
            <TableCell>{t('equipment.groups.vehicles')}</TableCell>
            <TableCell>{t('equipment.groups.lastRollout')}</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.id} data-testid={`group-row-${row.name}`}>
              <TableCell>{row.name}</TableCell>
              <TableCell>{t(`equipment.groups.kinds.${row.kind}`)}</TableCell>
              <TableCell>{formatNumber(row.vehicles)}</TableCell>
              <TableCell>
                {row.last_rollout
                  ? `№${row.last_rollout.id} ${row.last_rollout.configuration} · ${t(`equipment.rolloutStates.${row.last_rollout.state}`)}`
                  : '—'}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {configurationRights.read && (
                  <Button
                    size="small"
                    onClick={() => navigate(`/mnt-configuration/configuration/${row.id}`)}
                    data-testid={`group-open-${row.name}`}
                  >
                    {t('equipment.groups.open')}
                  </Button>
                )}
                {rights.update && (
                  <Button size="small" onClick={() => setEditing(row)}>
                    {t('equipment.groups.edit')}
                  </Button>
                )}
                {rights.delete && (
                  <Button size="small" color="error" onClick={() => setDeleting(row)}>
                    {t('equipment.groups.delete')}
                  </Button>
                )}
              </TableCell>
            </TableRow>
          ))}
          {(list.isError || (list.isSuccess && !rows.length)) && (
            <TableRow>
              <TableCell colSpan={5}>{t(list.isError ? 'loadFailed' : 'equipment.groups.empty')}</TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
      {editing && (
        <VehicleGroupDialog
          editing={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            load();
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        message={t('equipment.groups.confirmDelete', { name: deleting?.name ?? '' })}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting)
            deleteGroup(deleting.id).then(
              () => {
                showMessage(t('equipment.groups.deleted'), 'success');
                load();
              },
              () => undefined,
            );
          setDeleting(null);
        }}
      />
      <Stack />
    </Box>
  );
}
