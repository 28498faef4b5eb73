import { Alert, Box, Button, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { DISPATCH_ALERTS_PATH, type ServiceAlert } from '../../shared/dispatch/alerts';
import { formatDateTime } from '../../shared/format';
import { useRights } from '../../web/components/useRights';
import { useT } from '../../web/i18n/translate';
import { useAlertsInForce } from './alertsApi';

const when = (value: string) => formatDateTime(value, { seconds: false });
/** At most this many routes or stops are named in the strip; the rest are counted. */
const NAMED_MAX = 8;

function names(list: ServiceAlert['routes']): string {
  const shown = list.slice(0, NAMED_MAX).map((item) => item.name);
  return list.length > NAMED_MAX ? `${shown.join(', ')} +${list.length - NAMED_MAX}` : shown.join(', ');
}

/** One alert in a line: its effect and header, its period, what it concerns. */
function BoardAlertLine({ alert }: { alert: ServiceAlert }) {
  const t = useT();
  const period = [
    t('dispatch.alerts.board.from', { at: when(alert.activeFrom) }),
    alert.activeTo ? t('dispatch.alerts.board.until', { at: when(alert.activeTo) }) : t('dispatch.alerts.untilEnded'),
  ].join(' ');
  const concerns = alert.wholeNetwork
    ? t('dispatch.alerts.wholeNetwork')
    : [
        alert.routes.length ? `${t('dispatch.alerts.routes')}: ${names(alert.routes)}` : null,
        alert.stops.length ? `${t('dispatch.alerts.stops')}: ${names(alert.stops)}` : null,
      ]
        .filter(Boolean)
        .join('; ');
  return (
    <Typography variant="body2" component="div" data-testid="board-alert" data-alert-id={alert.id}>
      <b>{t(`dispatch.alerts.effects.${alert.effect}`)}</b>: {alert.header}
      <Box component="span" sx={{ color: 'text.secondary' }}>
        {' · '}
        {period}
        {concerns && ` · ${concerns}`}
      </Box>
    </Typography>
  );
}

/**
 * The passengers' alerts in force above the board's table, read as often as the counters: what the dispatcher's
 * passengers are being told now. Shown to who may read /dispatch/alerts, only while there is one.
 */
export function BoardAlerts() {
  const t = useT();
  const rights = useRights(DISPATCH_ALERTS_PATH);
  const alerts = useAlertsInForce(rights.read);
  const list = alerts.data?.list ?? [];
  if (!rights.read || !list.length) return null;
  return (
    <Alert
      severity="info"
      sx={{ mb: 1, py: 0, '& .MuiAlert-message': { flex: 1 } }}
      action={
        <Button size="small" component={RouterLink} to={DISPATCH_ALERTS_PATH} data-testid="board-alerts-link">
          {t('dispatch.alerts.board.all')}
        </Button>
      }
      data-testid="board-alerts"
    >
      <Typography variant="caption" color="text.secondary">
        {t('dispatch.alerts.board.title')}
      </Typography>
      {list.map((alert) => (
        <BoardAlertLine key={alert.id} alert={alert} />
      ))}
    </Alert>
  );
}
