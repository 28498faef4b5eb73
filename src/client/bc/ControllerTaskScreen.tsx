import { useCallback, useEffect, useState } from 'react';
import {
  Box,
  Button,
  IconButton,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
  TableSortLabel,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import AssignmentIcon from '@mui/icons-material/AssignmentOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import PrintIcon from '@mui/icons-material/PrintOutlined';
import { Link, useLocation, useSearchParams } from 'react-router';
import { Title } from 'react-admin';
import { TASK_STATUSES, type ControllerTask } from '../../shared/bc/tasks';
import { formatDate, isoDate } from '../../shared/format';
import { minutesToHhMm } from '../../shared/time';
import { useRights } from '../../web/components/useRights';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useT } from '../../web/i18n/translate';
import { showMessage } from '../../web/stores/messageStore';
import { bcApi } from '../../web/bc/bcApi';
import { DateField } from './DateField';
import { StatusChip } from '../../web/bc/TaskResultView';
import { TaskFormDialog } from './TaskFormDialog';
import { TaskPrintPage } from './TaskPrintPage';
import { useBcOptions } from './useBcOptions';

const PAGE = 100;
const DAY = 86_400_000;

/**
 * /bc/controllertask: the work orders, filtered by period, department, status and controller (the filters are
 * the address), sorted and paged on the server; create, edit, delete, print, open the report.
 */
export default function ControllerTaskScreen() {
  const { pathname } = useLocation();
  const printed = Number(/^\/bc\/controllertask\/print\/(\d{1,10})$/.exec(pathname)?.[1]);
  return printed ? <TaskPrintPage taskId={printed} /> : <TaskList />;
}

function TaskList() {
  const t = useT();
  const options = useBcOptions();
  const rights = useRights('/bc/controllertask');
  const [params, setParams] = useSearchParams();
  const from = params.get('from') ?? isoDate(new Date(Date.now() - 7 * DAY));
  const to = params.get('to') ?? isoDate(new Date(Date.now() + 7 * DAY));
  const department = params.get('department') ?? '';
  const status = params.get('status') ?? '';
  const worker = params.get('worker') ?? '';
  const sort = params.get('sort') ?? 'date';
  const order = (params.get('order') ?? 'DESC') as 'ASC' | 'DESC';
  const page = Number(params.get('page') ?? 0);
  const [data, setData] = useState<{ list: ControllerTask[]; count: number }>();
  const [editing, setEditing] = useState<ControllerTask | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ControllerTask | null>(null);
  const [version, setVersion] = useState(0);

  const update = (changes: Record<string, string>) =>
    setParams((p) => {
      const next = new URLSearchParams(p);
      for (const [key, value] of Object.entries(changes))
        if (value) next.set(key, value);
        else next.delete(key);
      if (!('page' in changes)) next.delete('page');
      return next;
    });

  useEffect(() => {
    const controller = new AbortController();
    void bcApi
      .tasks(
        {
          from: from || undefined,
          to: to || undefined,
          department: department ? [Number(department)] : undefined,
          status: status ? [status] : undefined,
          worker: worker ? Number(worker) : undefined,
          sortField: sort,
          sortOrder: order,
          skipCount: page * PAGE,
          recordCount: PAGE,
        },
        controller.signal,
      )
      .then(setData)
      .catch(() => undefined);
    return () => controller.abort();
  }, [from, to, department, status, worker, sort, order, page, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const remove = async (task: ControllerTask) => {
    await bcApi.remove(task.id);
    showMessage(t('bc.orders.deleted'), 'success');
    setDeleting(null);
    reload();
  };
  const sortable = (field: string, label: string) => (
    <TableSortLabel
      active={sort === field}
      direction={sort === field && order === 'ASC' ? 'asc' : 'desc'}
      onClick={() => update({ sort: field, order: sort === field && order === 'DESC' ? 'ASC' : 'DESC' })}
    >
      {label}
    </TableSortLabel>
  );

  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 }, minWidth: 0 }}>
      <Title title="menu.bc.controllertask" />
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
          <DateField label={t('bc.orders.from')} value={from} onChange={(v) => update({ from: v })} />
          <DateField label={t('bc.orders.to')} value={to} onChange={(v) => update({ to: v })} />
          <TextField
            select
            size="small"
            fullWidth={false}
            sx={{ minWidth: 220 }}
            label={t('bc.fields.department')}
            value={department}
            onChange={(e) => update({ department: e.target.value, worker: '' })}
          >
            <MenuItem value="">{t('bc.orders.allDepartments')}</MenuItem>
            {options?.departments.map((d) => (
              <MenuItem key={d.id} value={String(d.id)}>
                {d.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            fullWidth={false}
            sx={{ minWidth: 160 }}
            label={t('bc.fields.status')}
            value={status}
            onChange={(e) => update({ status: e.target.value })}
          >
            <MenuItem value="">{t('bc.orders.allStatuses')}</MenuItem>
            {TASK_STATUSES.map((s) => (
              <MenuItem key={s} value={s}>
                {t(`bc.status.${s}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            fullWidth={false}
            sx={{ minWidth: 220 }}
            label={t('bc.orders.worker')}
            value={worker}
            onChange={(e) => update({ worker: e.target.value })}
          >
            <MenuItem value="">{t('bc.orders.anyWorker')}</MenuItem>
            {options?.workers
              .filter((w) => !department || w.td_id === Number(department))
              .map((w) => (
                <MenuItem key={w.id} value={String(w.id)}>
                  {w.fio}
                </MenuItem>
              ))}
          </TextField>
          <Box sx={{ flex: 1 }} />
          {rights.create && (
            <Button
              variant="contained"
              startIcon={<AddIcon />}
              onClick={() => setEditing('new')}
              disabled={!options}
              data-testid="task-create"
            >
              {t('bc.orders.create')}
            </Button>
          )}
        </Stack>
      </Paper>
      <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
        <Table size="small" data-testid="task-list">
          <TableHead>
            <TableRow>
              <TableCell>{sortable('number', t('bc.fields.number'))}</TableCell>
              <TableCell>{sortable('date', t('bc.fields.date'))}</TableCell>
              <TableCell>{t('bc.fields.hours')}</TableCell>
              <TableCell>{sortable('department', t('bc.fields.department'))}</TableCell>
              <TableCell>{t('bc.fields.region')}</TableCell>
              <TableCell>{t('bc.fields.workers')}</TableCell>
              <TableCell>{t('bc.fields.mainRoutes')}</TableCell>
              <TableCell>{t('bc.fields.incidentalRoutes')}</TableCell>
              <TableCell>{sortable('status', t('bc.fields.status'))}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {data?.list.map((task) => (
              <TableRow key={task.id} hover data-testid="task-row" data-id={task.id}>
                <TableCell>{task.number}</TableCell>
                <TableCell>{formatDate(task.date)}</TableCell>
                <TableCell
                  sx={{ whiteSpace: 'nowrap' }}
                >{`${minutesToHhMm(task.graphicType_start)}–${minutesToHhMm(task.graphicType_end)}`}</TableCell>
                <TableCell>{task.department}</TableCell>
                <TableCell>{task.control_region ?? ''}</TableCell>
                <TableCell>{task.workers.map((w) => w.fio).join(', ')}</TableCell>
                <TableCell>
                  {task.routes
                    .filter((r) => r.type === 0)
                    .map((r) => r.short_name)
                    .join(', ')}
                </TableCell>
                <TableCell>
                  {task.routes
                    .filter((r) => r.type === 1)
                    .map((r) => r.short_name)
                    .join(', ')}
                </TableCell>
                <TableCell>
                  <StatusChip status={task.status} />
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {rights.update && task.status !== 'closed' && (
                    <Tooltip title={t('bc.orders.edit', { number: task.number })}>
                      <IconButton size="small" onClick={() => setEditing(task)}>
                        <EditIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                  <Tooltip title={t('bc.orders.result')}>
                    <IconButton size="small" component={Link} to={`/bc/result/${task.id}`}>
                      <AssignmentIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t('bc.orders.print')}>
                    <IconButton size="small" component={Link} to={`/bc/controllertask/print/${task.id}`} target="_blank">
                      <PrintIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  {rights.delete && (
                    <Tooltip title={t('bc.orders.delete')}>
                      <IconButton size="small" onClick={() => setDeleting(task)}>
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {data && data.count === 0 && (
          <Typography sx={{ p: 2 }} color="text.secondary">
            {t('bc.orders.empty')}
          </Typography>
        )}
        <TablePagination
          component="div"
          count={data?.count ?? 0}
          page={page}
          rowsPerPage={PAGE}
          rowsPerPageOptions={[PAGE]}
          onPageChange={(_, p) => update({ page: String(p) })}
        />
      </Paper>
      {editing && options && (
        <TaskFormDialog
          options={options}
          task={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            reload();
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          open
          message={t('bc.orders.deleteConfirm', { number: deleting.number })}
          onConfirm={() => void remove(deleting)}
          onClose={() => setDeleting(null)}
        />
      )}
    </Stack>
  );
}
