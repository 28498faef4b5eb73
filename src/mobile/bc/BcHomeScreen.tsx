import { List, ListItemButton, ListItemIcon, ListItemText, Stack, Typography } from '@mui/material';
import AssignmentIcon from '@mui/icons-material/AssignmentOutlined';
import EditNoteIcon from '@mui/icons-material/EditNote';
import MapIcon from '@mui/icons-material/MapOutlined';
import PlaceIcon from '@mui/icons-material/PlaceOutlined';
import { Link } from 'react-router';
import { formatDate } from '../../shared/format';
import { useT } from '../../web/i18n/translate';
import { useCurrentUser } from '../../web/stores/sessionStore';
import { OutboxPanel } from './OutboxPanel';
import { useWorkerTask } from './workerTask';

/**
 * /bc, the ticket-control menu (field-app spec 2.2): the current control process always; the work order,
 * control regions and the report only with a task assigned.
 */
export default function BcHomeScreen() {
  const t = useT();
  const user = useCurrentUser();
  const { loaded, task } = useWorkerTask(user?.id);
  const entries = [
    { path: '/bc/departmentcontroll', label: 'mobile.bc.process', icon: <MapIcon />, always: true },
    { path: '/bc/controllertask', label: 'mobile.bc.orders', icon: <AssignmentIcon />, always: false },
    { path: '/bc/currentregion', label: 'mobile.bc.regions', icon: <PlaceIcon />, always: false },
    { path: '/bc/result', label: 'mobile.bc.results', icon: <EditNoteIcon />, always: false },
  ].filter((entry) => entry.always || task);
  return (
    <Stack spacing={1} sx={{ p: 1 }} data-testid="bc-home">
      {loaded && (
        <Typography variant="body2" color="text.secondary" sx={{ px: 1 }} data-testid="bc-task-line">
          {task ? t('mobile.bc.task', { number: task.number, date: formatDate(task.date) }) : t('mobile.bc.noTask')}
        </Typography>
      )}
      <List>
        {entries.map((entry) => (
          <ListItemButton key={entry.path} component={Link} to={entry.path} data-testid="bc-menu-entry" data-path={entry.path}>
            <ListItemIcon>{entry.icon}</ListItemIcon>
            <ListItemText primary={t(entry.label)} />
          </ListItemButton>
        ))}
      </List>
      <OutboxPanel userId={user?.id} />
    </Stack>
  );
}
