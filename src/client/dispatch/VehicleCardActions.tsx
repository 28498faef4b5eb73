import { useState } from 'react';
import { Button, Stack } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { DISPATCH_CHANGES_PATH, DISPATCH_MESSAGES_PATH } from '../../shared/dispatch/control';
import { useRights } from '../../web/components/useRights';
import { useT } from '../../web/i18n/translate';
import { ChangeRunDialog } from './ChangeRunDialog';
import { useChangeRuns } from './controlApi';
import { useVehicleCard } from '../../web/dispatch/dispatchApi';

/**
 * The line diagram's vehicle card actions: cancel a run of the vehicle's exits (code 46; the dialog of
 * «Изменения движения», its current run chosen first) and write to its driver (code 47).
 */
export function VehicleCardActions({ vehicleId }: { vehicleId: number }) {
  const t = useT();
  const changes = useRights(DISPATCH_CHANGES_PATH);
  const messages = useRights(DISPATCH_MESSAGES_PATH);
  const [open, setOpen] = useState(false);
  const runs = useChangeRuns(open ? { vehicle: vehicleId } : {});
  const card = useVehicleCard(vehicleId);
  const current = runs.data?.list.find(
    (r) => r.graph === card.data?.graph && r.raceNum === card.data?.raceNum && r.routeId === card.data?.routeId,
  );
  if (!changes.create && !messages.create) return null;
  return (
    <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
      {changes.create && (
        <Button size="small" color="error" variant="outlined" onClick={() => setOpen(true)} data-testid="card-cancel-run">
          {t('dispatch.control.cancelRun')}
        </Button>
      )}
      {messages.create && (
        <Button
          size="small"
          variant="outlined"
          component={RouterLink}
          to={`/dispatch/messages?vehicle=${vehicleId}`}
          data-testid="card-message"
        >
          {t('dispatch.control.message')}
        </Button>
      )}
      {open && runs.data && <ChangeRunDialog runs={runs.data.list} runKey={current?.runKey} kind="cancel" onClose={() => setOpen(false)} />}
    </Stack>
  );
}
