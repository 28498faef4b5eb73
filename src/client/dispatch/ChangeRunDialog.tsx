import { useState } from 'react';
import { Dialog, DialogContent, DialogTitle, MenuItem, TextField } from '@mui/material';
import type { ChangeRun, RunChangeKind } from '../../shared/dispatch/control';
import { useT } from '../../web/i18n/translate';
import { ChangeActions, ReasonField, RunSelect } from './ChangeFields';
import { useCreateChange } from './controlApi';
import { DispatchError } from '../../web/dispatch/DispatchError';

/**
 * A service change of one run (code 46): cancel it or move its start, with a reason. The changes screen opens it
 * on a run; the line diagram's vehicle card on the vehicle's runs of the day (its current one first chosen).
 */
export function ChangeRunDialog({
  runs,
  runKey,
  kind: initialKind,
  onClose,
}: {
  runs: readonly ChangeRun[];
  runKey?: string;
  kind: RunChangeKind;
  onClose: () => void;
}) {
  const t = useT();
  const open = runs.filter((r) => !(initialKind === 'cancel' && r.cancelled));
  const [chosen, setChosen] = useState(runKey ?? open[0]?.runKey ?? '');
  const [kind, setKind] = useState<RunChangeKind>(initialKind);
  const [minutes, setMinutes] = useState('5');
  const [reason, setReason] = useState('');
  const create = useCreateChange();
  const save = () =>
    create.mutate({ runKey: chosen, kind, reason, ...(kind === 'shift' ? { shiftMinutes: Number(minutes) } : {}) }, { onSuccess: onClose });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" data-testid="change-dialog">
      <DialogTitle>{t('dispatch.control.dialogTitle')}</DialogTitle>
      <DialogContent>
        <RunSelect runs={runs} value={chosen} onChange={setChosen} label={t('dispatch.control.run')} testId="change-run" />
        <TextField
          select
          fullWidth
          margin="dense"
          label={t('dispatch.control.kind')}
          value={kind}
          onChange={(e) => setKind(e.target.value as RunChangeKind)}
          slotProps={{ htmlInput: { 'data-testid': 'change-kind' } }}
        >
          <MenuItem value="cancel">{t('dispatch.control.kinds.cancel')}</MenuItem>
          <MenuItem value="shift">{t('dispatch.control.kinds.shift')}</MenuItem>
        </TextField>
        {kind === 'shift' && (
          <TextField
            fullWidth
            margin="dense"
            type="number"
            label={t('dispatch.control.minutes')}
            value={minutes}
            onChange={(e) => setMinutes(e.target.value)}
            slotProps={{ htmlInput: { step: 1, 'data-testid': 'change-minutes' } }}
          />
        )}
        <ReasonField value={reason} onChange={setReason} testId="change-reason" autoFocus />
        <DispatchError error={create.error} />
      </DialogContent>
      <ChangeActions onClose={onClose} onSave={save} disabled={create.isPending || !chosen} testId="change-save" />
    </Dialog>
  );
}
