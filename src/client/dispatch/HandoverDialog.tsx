import { useState } from 'react';
import { Checkbox, Dialog, DialogContent, DialogTitle, FormControlLabel } from '@mui/material';
import type { ChangeRun } from '../../shared/dispatch/control';
import { useOptions } from '../../web/dispatch/dispatchApi';
import { DispatchError } from '../../web/dispatch/DispatchError';
import { HttpError } from '../../web/providers/httpClient';
import { useT } from '../../web/i18n/translate';
import { ChangeActions, ReasonField, RunSelect } from './ChangeFields';
import { useHandover } from './controlApi';
import { DispatchIdSelect } from './DispatchIdSelect';

/**
 * Hands a vehicle's exit over to another vehicle from now (code 46): the run it is handed over on (its current
 * one first chosen), the new vehicle and the reason. A vehicle working another exit is handed over only once
 * confirmed (the server says so).
 */
export function HandoverDialog({
  runs,
  runKey,
  vehicleId,
  onClose,
}: {
  runs: readonly ChangeRun[];
  runKey?: string;
  vehicleId: number;
  onClose: () => void;
}) {
  const t = useT();
  const options = useOptions();
  const handover = useHandover();
  const [chosen, setChosen] = useState(runKey ?? runs[0]?.runKey ?? '');
  const [vehicle, setVehicle] = useState<number | null>(null);
  const [reason, setReason] = useState('');
  const [confirm, setConfirm] = useState(false);
  const busy = handover.error instanceof HttpError && handover.error.messages.includes('dispatch_vehicle_busy');
  const save = () =>
    vehicle !== null &&
    handover.mutate({ runKey: chosen, vehicleId: vehicle, reason, ...(confirm ? { confirm: true } : {}) }, { onSuccess: onClose });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" data-testid="handover-dialog">
      <DialogTitle>{t('dispatch.control.handoverTitle')}</DialogTitle>
      <DialogContent>
        <RunSelect runs={runs} value={chosen} onChange={setChosen} label={t('dispatch.control.handoverRun')} testId="handover-run" />
        <DispatchIdSelect
          label={t('dispatch.control.newVehicle')}
          options={(options.data?.vehicles ?? []).filter((v) => v.id !== vehicleId)}
          value={vehicle === null ? [] : [vehicle]}
          onChange={(ids) => setVehicle(ids[0] ?? null)}
          testId="handover-vehicle"
          multiple={false}
        />
        <ReasonField value={reason} onChange={setReason} testId="handover-reason" />
        {busy && (
          <FormControlLabel
            control={<Checkbox checked={confirm} onChange={(e) => setConfirm(e.target.checked)} data-testid="handover-confirm" />}
            label={t('dispatch.control.confirmBusy')}
          />
        )}
        <DispatchError error={handover.error} />
      </DialogContent>
      <ChangeActions onClose={onClose} onSave={save} disabled={handover.isPending || !chosen || vehicle === null} testId="handover-save" />
    </Dialog>
  );
}
