import { useState } from 'react';
import { Box, Button, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { Title } from 'react-admin';
import { useSearchParams } from 'react-router';
import { ALERT_STATES, DISPATCH_ALERTS_PATH, type AlertsFilter, type ServiceAlert } from '../../shared/dispatch/alerts';
import { useRights } from '../../web/components/useRights';
import { useT } from '../../web/i18n/translate';
import { DispatchError } from '../../web/dispatch/DispatchError';
import { AlertDialog } from './AlertDialog';
import { AlertsTable, type AlertAction } from './AlertsTable';
import { useAlertAction, useAlerts } from './alertsApi';

const FILTERS: readonly AlertsFilter[] = ['current', ...ALERT_STATES, 'all'];
const isFilter = (value: string | null): value is AlertsFilter => FILTERS.includes(value as AlertsFilter);

/**
 * /dispatch/alerts «Оповещения» (code 44 reads, code 46 writes): passengers' service alerts by state (?state=),
 * a draft written and edited, published (then in the GTFS-Realtime Alerts feed while its period runs), ended.
 */
export default function AlertsScreen() {
  const t = useT();
  const rights = useRights(DISPATCH_ALERTS_PATH);
  const [params, setParams] = useSearchParams();
  const state = isFilter(params.get('state')) ? (params.get('state') as AlertsFilter) : 'current';
  const alerts = useAlerts(state);
  const act = useAlertAction();
  const [editing, setEditing] = useState<ServiceAlert | 'new' | null>(null);
  const setState = (next: AlertsFilter) =>
    setParams(
      (current) => {
        const out = new URLSearchParams(current);
        if (next === 'current') out.delete('state');
        else out.set('state', next);
        return out;
      },
      { replace: true },
    );
  const onAction = (alert: ServiceAlert, action: AlertAction) => {
    if (action === 'edit') setEditing(alert);
    else act.mutate({ id: alert.id, action });
  };

  return (
    <Box sx={{ p: 2 }} data-testid="dispatch-alerts">
      <Title title={t('menu.dispatch.alerts')} />
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="h6" sx={{ flexGrow: 1 }}>
          {t('dispatch.alerts.title')}
        </Typography>
        <TextField
          select
          size="small"
          label={t('dispatch.alerts.filter')}
          value={state}
          onChange={(e) => setState(e.target.value as AlertsFilter)}
          sx={{ width: 200 }}
          slotProps={{ htmlInput: { 'data-testid': 'alerts-filter' } }}
        >
          {FILTERS.map((f) => (
            <MenuItem key={f} value={f}>
              {t(`dispatch.alerts.filters.${f}`)}
            </MenuItem>
          ))}
        </TextField>
        {rights.create && (
          <Button variant="contained" onClick={() => setEditing('new')} data-testid="alert-create">
            {t('dispatch.alerts.create')}
          </Button>
        )}
      </Stack>
      <DispatchError error={alerts.error ?? act.error} />
      {alerts.data && <AlertsTable alerts={alerts.data.list} rights={rights} busy={act.isPending} onAction={onAction} />}
      {editing && <AlertDialog alert={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </Box>
  );
}
