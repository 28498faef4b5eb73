import { Alert, Box, Button, Chip, Paper, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { Link } from 'react-router';
import { Title } from 'react-admin';
import { SEIZED_CATEGORIES } from '../../shared/bc/report';
import { STATUS_COLORS, type ControllerTask } from '../../shared/bc/tasks';
import { formatDate, formatNumber } from '../../shared/format';
import { minutesToHhMm } from '../../shared/time';
import { useT } from '../i18n/translate';
import { useApiQuery } from '../providers/queries';
import { AuthImage } from './AuthImage';
import { bcApi } from './bcApi';

/** The header facts of an order: number, date, hours, department, region, controllers, routes, status. */
export function TaskFacts({ task }: { task: ControllerTask }) {
  const t = useT();
  const routes = (type: 0 | 1) =>
    task.routes
      .filter((r) => r.type === type)
      .map((r) => r.short_name)
      .join(', ') || '—';
  const facts: [string, string][] = [
    ['bc.fields.date', formatDate(task.date)],
    ['bc.fields.hours', `${task.graphic_type} ${minutesToHhMm(task.graphicType_start)}–${minutesToHhMm(task.graphicType_end)}`],
    ['bc.fields.department', task.department],
    ['bc.fields.region', task.control_region ?? '—'],
    ['bc.fields.workers', task.workers.map((w) => w.fio).join(', ') || '—'],
    ['bc.fields.mainRoutes', routes(0)],
    ['bc.fields.incidentalRoutes', routes(1)],
  ];
  return (
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}>
      {facts.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {t(label)}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0 }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

export function StatusChip({ status }: { status: ControllerTask['status'] }) {
  const t = useT();
  return (
    <Chip
      size="small"
      label={t(`bc.status.${status}`)}
      data-testid="task-status"
      data-status={status}
      sx={{ alignSelf: 'flex-start', bgcolor: STATUS_COLORS[status], color: '#fff' }}
    />
  );
}

/**
 * One order's report on the desktop (/bc/result/{task}, /bc/resultuser/{task}): the order, tickets checked,
 * vehicle checks with violations and seized tickets, and the photos full size.
 */
export function TaskResultView({ taskId, back }: { taskId: number; back: string }) {
  const t = useT();
  const { data, isError } = useApiQuery(['bc', 'task-result', taskId], async (signal) => {
    const [task, result] = await Promise.all([bcApi.task(taskId, signal), bcApi.result(taskId, signal)]);
    return { task, result };
  });
  if (isError)
    return (
      <Alert severity="warning" sx={{ m: 2 }}>
        {t('bc.result.notFound')}
      </Alert>
    );
  if (!data) return null;
  const { task, result } = data;
  const ticketName = new Map(result.tickets.map((x) => [x.id, x.name]));
  const checked = Object.entries(result.task.check_tickets).filter(([, n]) => n > 0);
  const checks = result.task.check_vehicles;
  const sum = (pick: (c: (typeof checks)[number]) => number) => checks.reduce((s, c) => s + pick(c), 0);
  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 } }} data-testid="task-result">
      <Title title={t('bc.result.title', { number: task.number })} />
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Typography variant="h6">{t('bc.result.title', { number: task.number })}</Typography>
        <StatusChip status={task.status} />
        <Box sx={{ flex: 1 }} />
        <Button component={Link} to={back}>
          {t('bc.result.back')}
        </Button>
      </Stack>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <TaskFacts task={task} />
      </Paper>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="subtitle1" gutterBottom>
          {t('bc.result.tickets')}
        </Typography>
        <Table size="small" data-testid="result-tickets">
          <TableBody>
            {checked.map(([id, n]) => (
              <TableRow key={id}>
                <TableCell>{ticketName.get(Number(id)) ?? id}</TableCell>
                <TableCell align="right">{formatNumber(n)}</TableCell>
              </TableRow>
            ))}
            <TableRow>
              <TableCell sx={{ fontWeight: 500 }}>{t('bc.result.total')}</TableCell>
              <TableCell align="right" sx={{ fontWeight: 500 }}>
                {formatNumber(checked.reduce((s, [, n]) => s + n, 0))}
              </TableCell>
            </TableRow>
          </TableBody>
        </Table>
      </Paper>
      <Paper variant="outlined" sx={{ p: 2, overflowX: 'auto' }}>
        <Typography variant="subtitle1" gutterBottom>
          {t('bc.result.checks')}
        </Typography>
        {checks.length === 0 ? (
          <Typography color="text.secondary">{t('bc.result.noChecks')}</Typography>
        ) : (
          <Table size="small" data-testid="result-checks">
            <TableHead>
              <TableRow>
                <TableCell>{t('bc.result.route')}</TableCell>
                <TableCell align="right">{t('bc.result.depot')}</TableCell>
                <TableCell align="right">{t('bc.result.driver')}</TableCell>
                <TableCell align="right">{t('bc.result.sold')}</TableCell>
                <TableCell align="right">{t('bc.result.kickout')}</TableCell>
                <TableCell align="right">{t('bc.result.ovd')}</TableCell>
                <TableCell align="right">{t('bc.result.raport')}</TableCell>
                {SEIZED_CATEGORIES.map((c) => (
                  <TableCell key={c} align="right">{`${t('bc.result.seized')}: ${t(`bc.seized.${c}`)}`}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {checks.map((c, i) => (
                <TableRow key={i} data-testid="result-check">
                  <TableCell>{c.route_short_name}</TableCell>
                  <TableCell align="right">{c.depot_number ?? ''}</TableCell>
                  <TableCell align="right">{c.table_number ?? ''}</TableCell>
                  <TableCell
                    align="right"
                    title={c.sell_tickets
                      .filter((s) => s.count)
                      .map((s) => `${ticketName.get(s.ticket_id)}: ${s.count}`)
                      .join('\n')}
                  >
                    {formatNumber(c.sell_tickets.reduce((s, x) => s + x.count, 0))}
                  </TableCell>
                  <TableCell align="right">{c.kickout}</TableCell>
                  <TableCell align="right">{c.OVDdeliver}</TableCell>
                  <TableCell align="right">{c.driver_raport}</TableCell>
                  {c.take_tickets.map((x) => (
                    <TableCell key={x.ticket_id} align="right">
                      {x.count}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
              <TableRow>
                <TableCell sx={{ fontWeight: 500 }}>{t('bc.result.total')}</TableCell>
                <TableCell />
                <TableCell />
                <TableCell align="right">{formatNumber(sum((c) => c.sell_tickets.reduce((s, x) => s + x.count, 0)))}</TableCell>
                <TableCell align="right">{sum((c) => c.kickout)}</TableCell>
                <TableCell align="right">{sum((c) => c.OVDdeliver)}</TableCell>
                <TableCell align="right">{sum((c) => c.driver_raport)}</TableCell>
                {SEIZED_CATEGORIES.map((_, k) => (
                  <TableCell key={k} align="right">
                    {sum((c) => c.take_tickets[k].count)}
                  </TableCell>
                ))}
              </TableRow>
            </TableBody>
          </Table>
        )}
      </Paper>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="subtitle1" gutterBottom>
          {t('bc.result.photos')}
        </Typography>
        {result.files.length === 0 ? (
          <Typography color="text.secondary">{t('bc.result.noPhotos')}</Typography>
        ) : (
          <Stack spacing={2}>
            {result.files.map((file) => (
              <Box key={file.id} component="figure" sx={{ m: 0 }}>
                <AuthImage src={file.url} alt={file.title} testId="result-photo" />
                <Typography component="figcaption" variant="caption" color="text.secondary">
                  {file.title}
                </Typography>
              </Box>
            ))}
          </Stack>
        )}
      </Paper>
    </Stack>
  );
}
