import { useState } from 'react';
import {
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import dayjs, { type Dayjs } from 'dayjs';
import {
  ALERT_CAUSES,
  ALERT_EFFECTS,
  DESCRIPTION_MAX,
  HEADER_MAX,
  type AlertBody,
  type AlertCause,
  type AlertEffect,
  type ServiceAlert,
} from '../../shared/dispatch/alerts';
import { useT } from '../../web/i18n/translate';
import { DispatchError } from '../../web/dispatch/DispatchError';
import { AlertStopSelect } from './AlertStopSelect';
import { useAlertRoutes, useSaveAlert } from './alertsApi';
import { DispatchIdSelect } from './DispatchIdSelect';

/** A draft alert written or edited (code 46): cause and effect, texts, period, the routes and stops or the whole network. */
export function AlertDialog({ alert, onClose }: { alert: ServiceAlert | null; onClose: () => void }) {
  const t = useT();
  const routes = useAlertRoutes();
  const save = useSaveAlert();
  const [cause, setCause] = useState<AlertCause>(alert?.cause ?? 'OTHER_CAUSE');
  const [effect, setEffect] = useState<AlertEffect>(alert?.effect ?? 'MODIFIED_SERVICE');
  const [header, setHeader] = useState(alert?.header ?? '');
  const [description, setDescription] = useState(alert?.description ?? '');
  const [from, setFrom] = useState<Dayjs | null>(alert ? dayjs(alert.activeFrom) : dayjs());
  const [to, setTo] = useState<Dayjs | null>(alert?.activeTo ? dayjs(alert.activeTo) : null);
  const [wholeNetwork, setWholeNetwork] = useState(alert?.wholeNetwork ?? false);
  const [routeIds, setRouteIds] = useState<number[]>(alert?.routes.map((r) => r.id) ?? []);
  const [stops, setStops] = useState(alert?.stops ?? []);
  const moment = (value: Dayjs | null) => (value?.isValid() ? value.toISOString() : value ? 'invalid' : undefined);
  const submit = () => {
    const body: AlertBody = {
      cause,
      effect,
      header,
      description,
      activeFrom: moment(from),
      activeTo: moment(to) ?? null,
      wholeNetwork,
      routeIds: wholeNetwork ? [] : routeIds,
      stopIds: wholeNetwork ? [] : stops.map((s) => s.id),
    };
    save.mutate({ id: alert?.id, body }, { onSuccess: onClose });
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" data-testid="alert-dialog">
      <DialogTitle>{t(alert ? 'dispatch.alerts.dialogEdit' : 'dispatch.alerts.dialogNew')}</DialogTitle>
      <DialogContent>
        <Stack direction="row" spacing={2}>
          <TextField
            select
            fullWidth
            margin="dense"
            label={t('dispatch.alerts.cause')}
            value={cause}
            onChange={(e) => setCause(e.target.value as AlertCause)}
            slotProps={{ htmlInput: { 'data-testid': 'alert-cause' } }}
          >
            {ALERT_CAUSES.map((c) => (
              <MenuItem key={c} value={c}>
                {t(`dispatch.alerts.causes.${c}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            fullWidth
            margin="dense"
            label={t('dispatch.alerts.effect')}
            value={effect}
            onChange={(e) => setEffect(e.target.value as AlertEffect)}
            slotProps={{ htmlInput: { 'data-testid': 'alert-effect' } }}
          >
            {ALERT_EFFECTS.map((c) => (
              <MenuItem key={c} value={c}>
                {t(`dispatch.alerts.effects.${c}`)}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
        <TextField
          autoFocus
          fullWidth
          margin="dense"
          label={t('dispatch.alerts.header')}
          value={header}
          onChange={(e) => setHeader(e.target.value)}
          slotProps={{ htmlInput: { maxLength: HEADER_MAX, 'data-testid': 'alert-header' } }}
        />
        <TextField
          fullWidth
          multiline
          minRows={2}
          margin="dense"
          label={t('dispatch.alerts.description')}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          slotProps={{ htmlInput: { maxLength: DESCRIPTION_MAX, 'data-testid': 'alert-description' } }}
        />
        <Stack direction="row" spacing={2} sx={{ mt: 1 }}>
          <Box sx={{ width: 250 }}>
            <DateTimePicker
              label={t('dispatch.alerts.activeFrom')}
              value={from}
              onChange={setFrom}
              ampm={false}
              slotProps={{ textField: { size: 'small' } }}
            />
          </Box>
          <Box sx={{ width: 250 }}>
            <DateTimePicker
              label={t('dispatch.alerts.activeTo')}
              value={to}
              onChange={setTo}
              ampm={false}
              slotProps={{ textField: { size: 'small', helperText: t('dispatch.alerts.activeToHint') }, field: { clearable: true } }}
            />
          </Box>
        </Stack>
        <FormControlLabel
          sx={{ mt: 1 }}
          control={
            <Checkbox checked={wholeNetwork} onChange={(e) => setWholeNetwork(e.target.checked)} data-testid="alert-whole-network" />
          }
          label={t('dispatch.alerts.wholeNetwork')}
        />
        {!wholeNetwork && (
          <>
            <Box sx={{ mt: 1 }}>
              <DispatchIdSelect
                label={t('dispatch.alerts.routes')}
                options={routes.data?.list ?? []}
                value={routeIds}
                onChange={setRouteIds}
                testId="alert-routes"
              />
            </Box>
            <AlertStopSelect label={t('dispatch.alerts.stops')} value={stops} onChange={setStops} />
          </>
        )}
        <DispatchError error={save.error ?? routes.error} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('dispatch.alerts.close')}</Button>
        <Button variant="contained" onClick={submit} disabled={save.isPending} data-testid="alert-save">
          {t('dispatch.alerts.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
