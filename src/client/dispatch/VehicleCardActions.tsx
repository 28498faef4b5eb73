import { useState } from 'react';
import { Button, Stack } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { DISPATCH_CHANGES_PATH, DISPATCH_MESSAGES_PATH } from '../../shared/dispatch/control';
import { useRights } from '../../web/components/useRights';
import { useT } from '../../web/i18n/translate';
import { ChangeRunDialog } from './ChangeRunDialog';
import { DetourDialog } from './DetourDialog';
import { HandoverDialog } from './HandoverDialog';
import { useChangeRuns } from './controlApi';
import { useVehicleCard } from '../../web/dispatch/dispatchApi';

/**
 * The line diagram's vehicle card actions: cancel a run of the vehicle's exits or hand its exit over to another
 * vehicle (code 46; its current run chosen first), a detour of its route (its direction chosen first), and write
 * to its driver (code 47).
 */
export function VehicleCardActions({ vehicleId }: { vehicleId: number }) {
  const t = useT();
  const changes = useRights(DISPATCH_CHANGES_PATH);
  const messages = useRights(DISPATCH_MESSAGES_PATH);
  const [open, setOpen] = useState<'cancel' | 'handover' | 'detour' | null>(null);
  const runs = useChangeRuns(open === 'cancel' || open === 'handover' ? { vehicle: vehicleId } : {});
  const card = useVehicleCard(vehicleId);
  const current = runs.data?.list.find(
    (r) => r.graph === card.data?.graph && r.raceNum === card.data?.raceNum && r.routeId === card.data?.routeId,
  );
  if (!changes.create && !messages.create) return null;
  return (
    <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
      {changes.create && (
        <Button size="small" color="error" variant="outlined" onClick={() => setOpen('cancel')} data-testid="card-cancel-run">
          {t('dispatch.control.cancelRun')}
        </Button>
      )}
      {changes.create && (
        <Button size="small" variant="outlined" onClick={() => setOpen('handover')} data-testid="card-handover">
          {t('dispatch.control.handover')}
        </Button>
      )}
      {changes.create && card.data?.routeId != null && (
        <Button size="small" variant="outlined" onClick={() => setOpen('detour')} data-testid="card-detour">
          {t('dispatch.control.detour')}
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
      {open === 'cancel' && runs.data && (
        <ChangeRunDialog runs={runs.data.list} runKey={current?.runKey} kind="cancel" onClose={() => setOpen(null)} />
      )}
      {open === 'detour' && card.data?.routeId != null && (
        <DetourDialog
          routeId={card.data.routeId}
          direction={card.data.direction === 1 ? 1 : card.data.direction === 0 ? 0 : undefined}
          onClose={() => setOpen(null)}
        />
      )}
      {open === 'handover' && runs.data && (
        <HandoverDialog
          runs={runs.data.list.filter((r) => Date.parse(r.plannedEnd) >= Date.now())}
          runKey={current?.runKey}
          vehicleId={vehicleId}
          onClose={() => setOpen(null)}
        />
      )}
    </Stack>
  );
}
