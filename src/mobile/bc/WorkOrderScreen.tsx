import { Button, Paper, Stack, Typography } from '@mui/material';
import { Link } from 'react-router';
import { formatDate } from '../../shared/format';
import { minutesToHhMm } from '../../shared/time';
import { useT } from '../../web/i18n/translate';
import { useCurrentUser } from '../../web/stores/sessionStore';
import { StatusChip } from '../../web/bc/TaskResultView';
import { useWorkerTask } from './workerTask';

/**
 * /bc/controllertask, the work order (field-app spec 2.5): number, date, working hours, a link to the control
 * region, the workers' names, main routes (type 0) and incidental routes (type 1).
 */
export default function WorkOrderScreen() {
  const t = useT();
  const user = useCurrentUser();
  const { loaded, task } = useWorkerTask(user?.id);
  if (!loaded) return null;
  if (!task)
    return (
      <Typography sx={{ p: 2 }} color="text.secondary">
        {t('mobile.bc.noTask')}
      </Typography>
    );
  const routes = (type: 0 | 1) =>
    task.routes
      .filter((r) => r.type === type)
      .map((r) => r.short_name)
      .join(', ') || '—';
  const rows: [string, React.ReactNode][] = [
    ['bc.fields.number', task.number],
    ['bc.fields.date', formatDate(task.date)],
    ['bc.fields.hours', `${minutesToHhMm(task.graphicType_start)}–${minutesToHhMm(task.graphicType_end)}`],
    ['bc.fields.region', task.control_region ? <Link to="/bc/currentregion">{task.control_region}</Link> : '—'],
    ['bc.fields.workers', task.workers.map((w) => w.fio).join(', ')],
    ['bc.fields.mainRoutes', routes(0)],
    ['bc.fields.incidentalRoutes', routes(1)],
  ];
  return (
    <Stack spacing={1.5} sx={{ p: 1.5 }} data-testid="work-order">
      <Paper variant="outlined" sx={{ p: 1.5 }}>
        <Stack spacing={1}>
          <StatusChip status={task.status} />
          {rows.map(([label, value]) => (
            <div key={label}>
              <Typography variant="caption" color="text.secondary">
                {t(label)}
              </Typography>
              <Typography variant="body1">{value}</Typography>
            </div>
          ))}
        </Stack>
      </Paper>
      <Button variant="contained" size="large" component={Link} to="/bc/result" data-testid="open-report">
        {t('mobile.bc.results')}
      </Button>
    </Stack>
  );
}
