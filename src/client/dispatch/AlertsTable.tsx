import { Button, Chip, Paper, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { AlertState, ServiceAlert } from '../../shared/dispatch/alerts';
import { formatDateTime } from '../../shared/format';
import type { Rights } from '../../web/components/useRights';
import { useT } from '../../web/i18n/translate';

const when = (value: string | null) => (value ? formatDateTime(value, { seconds: false }) : '');
const STATE_COLOUR: Record<AlertState, 'default' | 'success' | 'warning'> = { draft: 'warning', published: 'success', ended: 'default' };

export type AlertAction = 'edit' | 'publish' | 'end' | 'delete';

/** The alerts with their state, texts, what they concern, period and history; the actions the rights allow. */
export function AlertsTable({
  alerts,
  rights,
  busy,
  onAction,
}: {
  alerts: readonly ServiceAlert[];
  rights: Rights;
  busy: boolean;
  onAction: (alert: ServiceAlert, action: AlertAction) => void;
}) {
  const t = useT();
  if (alerts.length === 0)
    return (
      <Typography sx={{ p: 2 }} color="text.secondary" data-testid="alerts-empty">
        {t('dispatch.alerts.empty')}
      </Typography>
    );
  const action = (a: ServiceAlert, name: AlertAction, colour: 'primary' | 'error' = 'primary') => (
    <Button size="small" color={colour} disabled={busy} onClick={() => onAction(a, name)} data-testid={`alert-${name}`}>
      {t(`dispatch.alerts.${name}`)}
    </Button>
  );
  return (
    <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
      <Table size="small" data-testid="alerts-table">
        <TableHead>
          <TableRow>
            {(['state', 'header', 'cause', 'entities', 'period', 'history', 'actions'] as const).map((c) => (
              <TableCell key={c}>{t(`dispatch.alerts.columns.${c}`)}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {alerts.map((a) => (
            <TableRow
              key={a.id}
              data-testid="alert-row"
              data-state={a.state}
              data-id={a.id}
              sx={{ opacity: a.state === 'ended' ? 0.6 : 1 }}
            >
              <TableCell>
                <Chip size="small" color={STATE_COLOUR[a.state]} label={t(`dispatch.alerts.states.${a.state}`)} data-testid="alert-state" />
                {a.inFeed && <Chip size="small" variant="outlined" sx={{ ml: 0.5 }} label={t('dispatch.alerts.inFeed')} />}
              </TableCell>
              <TableCell sx={{ maxWidth: 360 }}>
                <Typography variant="body2" sx={{ fontWeight: 500 }}>
                  {a.header}
                </Typography>
                {a.description && (
                  <Typography variant="caption" color="text.secondary">
                    {a.description}
                  </Typography>
                )}
              </TableCell>
              <TableCell>
                {t(`dispatch.alerts.causes.${a.cause}`)}
                <br />
                {t(`dispatch.alerts.effects.${a.effect}`)}
              </TableCell>
              <TableCell sx={{ maxWidth: 280 }}>
                {a.wholeNetwork
                  ? t('dispatch.alerts.wholeNetwork')
                  : [...a.routes.map((r) => r.name), ...a.stops.map((s) => s.name)].join(', ')}
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {when(a.activeFrom)}
                <br />
                {a.activeTo ? when(a.activeTo) : t('dispatch.alerts.untilEnded')}
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                <Typography variant="caption" component="div">
                  {t('dispatch.alerts.created', { at: when(a.createdAt), user: a.author ?? '' })}
                </Typography>
                {a.publishedAt && (
                  <Typography variant="caption" component="div">
                    {t('dispatch.alerts.published', { at: when(a.publishedAt), user: a.publishedBy ?? '' })}
                  </Typography>
                )}
                {a.endedAt && (
                  <Typography variant="caption" component="div">
                    {t('dispatch.alerts.ended', { at: when(a.endedAt), user: a.endedBy ?? '' })}
                  </Typography>
                )}
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {a.state === 'draft' && rights.create && action(a, 'edit')}
                {a.state === 'draft' && rights.update && action(a, 'publish')}
                {a.state === 'draft' && rights.create && action(a, 'delete', 'error')}
                {a.state === 'published' && rights.update && action(a, 'end', 'error')}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Paper>
  );
}
