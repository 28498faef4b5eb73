import { useCallback, useEffect, useState } from 'react';
import { Alert, Box, Button, IconButton, List, ListItemButton, ListItemText, Paper, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { useNavigate, useSearchParams } from 'react-router';
import { newVehicleCheck, recapSold, type TaskResultBody, type VehicleCheck } from '../../shared/bc/report';
import { photoTitle } from '../../shared/bc/tasks';
import { useT } from '../../web/i18n/translate';
import { useApiQuery } from '../../web/providers/queries';
import { showMessage } from '../../web/stores/messageStore';
import { useCurrentUser } from '../../web/stores/sessionStore';
import { CountField } from './CountField';
import { fieldDb } from './fieldDb';
import { OutboxPanel } from './OutboxPanel';
import { enqueue, newKey, useOutbox } from './outbox';
import { VehicleCheckEditor } from './VehicleCheckEditor';
import { loadTaskResult, setLocalStatus, useWorkerTask } from './workerTask';

const EDITOR_PARAM = 'vehicle';

/**
 * /bc/result, the controller report (field-app spec 2.5, 4, 5): tickets received per type, the vehicle checks
 * and their editor, 'Complete report execution'. Every change is kept on the phone (IndexedDB) at once; the
 * report, its photos and the closing status leave through the outgoing queue, so nothing is lost offline and
 * nothing is stored twice. The editor is a history entry (?vehicle=N): the back button closes it first.
 */
export default function ControllerReportScreen() {
  const t = useT();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const userId = user?.id;
  const { loaded: taskLoaded, task } = useWorkerTask(userId);
  const [params, setParams] = useSearchParams();
  const [edited, setEdited] = useState<{ taskId: number; body: TaskResultBody }>();
  const queue = useOutbox(userId);
  const editing = params.has(EDITOR_PARAM) ? Number(params.get(EDITOR_PARAM)) : null;
  const taskId = task?.id;
  const status = task?.status;
  const { data: loaded } = useApiQuery(['bc', 'field-report', userId, taskId], (signal) => loadTaskResult(userId!, taskId!, signal), {
    enabled: userId !== undefined && taskId !== undefined,
  });
  const body = edited && edited.taskId === taskId ? edited.body : undefined;

  // the order's counts as last edited on the phone, else as its report has them; taken once (a report read again
  // leaves the edits alone)
  const reported = loaded?.task;
  useEffect(() => {
    if (taskId === undefined || !reported) return undefined;
    let live = true;
    void fieldDb.drafts.get(taskId).then((draft) => {
      const first = draft?.body ?? { check_tickets: reported.check_tickets, check_vehicles: reported.check_vehicles };
      if (live) setEdited((current) => (current?.taskId === taskId ? current : { taskId, body: first }));
    });
    return () => {
      live = false;
    };
  }, [taskId, reported]);

  // the first entry of a new order starts it: new → in work (queued, so it works offline too); merely opening
  // the report to look at it leaves the order new
  const start = useCallback(() => {
    if (userId === undefined || taskId === undefined || status !== 'new') return;
    setLocalStatus('in_work');
    void enqueue({ kind: 'status', status: 'in_work', taskId, userId, key: newKey(), createdAt: Date.now() });
  }, [userId, taskId, status]);

  const change = useCallback(
    (next: TaskResultBody) => {
      if (taskId === undefined) return;
      setEdited({ taskId, body: next });
      if (userId !== undefined) void fieldDb.drafts.put({ taskId, userId, body: next, updatedAt: Date.now() });
      start();
    },
    [taskId, userId, start],
  );

  if (!taskLoaded || (task && (loaded === undefined || (loaded && !body)))) return null;
  if (!task)
    return (
      <Typography sx={{ p: 2 }} color="text.secondary">
        {t('mobile.bc.noTask')}
      </Typography>
    );
  if (!loaded || !body)
    return (
      <Alert severity="warning" sx={{ m: 1 }}>
        {t('mobile.bc.offline')}
      </Alert>
    );

  const ticketIds = loaded.tickets.map((x) => x.id);
  const photos = loaded.files.length + queue.filter((item) => item.kind === 'photo' && item.taskId === task.id).length;
  const readOnly = task.status === 'closed' || task.status === 'not_achieved';
  const open = (index: number) =>
    setParams((p) => {
      const next = new URLSearchParams(p);
      next.set(EDITOR_PARAM, String(index));
      return next;
    });
  const back = () => (editing !== null ? navigate(-1) : navigate('/bc'));
  const setCheck = (index: number, check: VehicleCheck) =>
    change({ ...body, check_vehicles: body.check_vehicles.map((c, i) => (i === index ? check : c)) });
  const addPhoto = (file: File) => {
    start();
    void enqueue({
      kind: 'photo',
      title: photoTitle(),
      photo: file,
      taskId: task.id,
      userId: userId!,
      key: newKey(),
      createdAt: Date.now(),
    });
  };

  const complete = async () => {
    await enqueue({ kind: 'result', body, taskId: task.id, userId: userId!, key: newKey(), createdAt: Date.now() });
    await enqueue({ kind: 'status', status: 'closed', taskId: task.id, userId: userId!, key: newKey(), createdAt: Date.now() });
    await fieldDb.drafts.delete(task.id);
    setLocalStatus('closed');
    showMessage(t(navigator.onLine ? 'mobile.bc.queued' : 'mobile.bc.offline'), navigator.onLine ? 'success' : 'warning');
    navigate('/bc');
  };

  return (
    <Stack spacing={1.5} sx={{ p: 1.5 }} data-testid="controller-report">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <IconButton aria-label={t('mobile.bc.back')} onClick={back} data-testid="report-back">
          <ArrowBackIcon />
        </IconButton>
        <Typography variant="h6" component="h1">
          {t('mobile.bc.reportTitle', { id: task.id })}
        </Typography>
      </Stack>
      <OutboxPanel userId={userId} />
      {readOnly && (
        <Alert severity={task.status === 'closed' ? 'success' : 'warning'}>
          {t(task.status === 'closed' ? 'mobile.bc.closed' : 'mobile.bc.notAchieved')}
        </Alert>
      )}
      {editing !== null && body.check_vehicles[editing] && !readOnly ? (
        <VehicleCheckEditor
          body={body}
          index={editing}
          loaded={loaded}
          photos={photos}
          onChange={(check) => setCheck(editing, check)}
          onPhoto={addPhoto}
        />
      ) : (
        <>
          <Paper variant="outlined" sx={{ p: 1.5 }}>
            <Typography variant="subtitle1" gutterBottom>
              {t('mobile.bc.ticketsReceived')}
            </Typography>
            <Stack spacing={1.5}>
              {loaded.tickets.map((ticket) => (
                <CountField
                  key={ticket.id}
                  label={ticket.name}
                  value={body.check_tickets[String(ticket.id)] ?? 0}
                  testId={`received-${ticket.id}`}
                  onChange={(count) => change(recapSold({ ...body, check_tickets: { ...body.check_tickets, [String(ticket.id)]: count } }))}
                />
              ))}
            </Stack>
          </Paper>
          <Paper variant="outlined" sx={{ p: 1.5 }}>
            <Stack direction="row" sx={{ alignItems: 'center' }}>
              <Typography variant="subtitle1" sx={{ flex: 1 }}>
                {t('mobile.bc.vehicleChecks')}
              </Typography>
              {!readOnly && (
                <Button
                  startIcon={<AddIcon />}
                  data-testid="add-vehicle"
                  onClick={() => {
                    change({ ...body, check_vehicles: [...body.check_vehicles, newVehicleCheck(ticketIds)] });
                    open(body.check_vehicles.length);
                  }}
                >
                  {t('mobile.bc.addVehicle')}
                </Button>
              )}
            </Stack>
            <List dense>
              {body.check_vehicles.map((check, i) => (
                <ListItemButton key={i} onClick={() => !readOnly && open(i)} data-testid="vehicle-check">
                  <ListItemText
                    primary={`${check.route_short_name || '—'} · ${check.depot_number ?? t('mobile.bc.noVehicle')}`}
                    secondary={t('mobile.bc.vehicle', { n: i + 1 })}
                  />
                </ListItemButton>
              ))}
            </List>
          </Paper>
          <Typography variant="caption" color="text.secondary">
            {t('mobile.bc.photos', { count: photos })}
          </Typography>
          {!readOnly && (
            <Box sx={{ pb: 2 }}>
              <Button fullWidth variant="contained" size="large" onClick={() => void complete()} data-testid="complete-report">
                {t('mobile.bc.complete')}
              </Button>
            </Box>
          )}
        </>
      )}
    </Stack>
  );
}
