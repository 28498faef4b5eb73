import { useState } from 'react';
import {
  Alert,
  Autocomplete,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import type { ControllerTask, TaskBody } from '../../shared/bc/tasks';
import { isoDate } from '../../shared/format';
import { minutesToHhMm } from '../../shared/time';
import { useT } from '../../web/i18n/translate';
import { showMessage } from '../../web/stores/messageStore';
import type { BcOptions } from '../../shared/bc/tasks';
import { bcApi } from '../../web/bc/bcApi';
import { DateField } from './DateField';

interface Draft {
  number: string;
  date: string;
  graphic_type_id: number | '';
  department_id: number | '';
  control_region_id: number | '';
  worker_ids: number[];
  main: number[];
  incidental: number[];
  note: string;
}

const draftOf = (task: ControllerTask | undefined, initial: Partial<Draft>): Draft =>
  task
    ? {
        number: task.number,
        date: task.date,
        graphic_type_id: task.graphic_type_id,
        department_id: task.department_id,
        control_region_id: task.control_region_id ?? '',
        worker_ids: task.workers.map((w) => w.id),
        main: task.routes.filter((r) => r.type === 0).map((r) => r.route_id),
        incidental: task.routes.filter((r) => r.type === 1).map((r) => r.route_id),
        note: task.note ?? '',
      }
    : {
        number: '',
        date: isoDate(new Date()),
        graphic_type_id: '',
        department_id: '',
        control_region_id: '',
        worker_ids: [],
        main: [],
        incidental: [],
        note: '',
        ...initial,
      };

/** The number a new order is offered: its day and a sequence, e.g. 2411-1-3. */
export const suggestNumber = (date: string, departmentId: number | '', sequence: number) =>
  date ? `${date.slice(8, 10)}${date.slice(5, 7)}-${departmentId || 0}-${sequence}` : '';

interface Props {
  options: BcOptions;
  /** The order edited; none for a new one. */
  task?: ControllerTask;
  /** A new order's first values (the calendar's day and department). */
  initial?: Partial<Draft>;
  onClose: () => void;
  onSaved: (task: ControllerTask) => void;
}

/**
 * The order form (/bc/controllertask, /bc/calendar): number, date, working hours (a work graphic type),
 * department, its control region and controllers, main and incidental routes, with the rotation suggestion.
 */
export function TaskFormDialog({ options, task, initial = {}, onClose, onSaved }: Props) {
  const t = useT();
  const [draft, setDraft] = useState<Draft>(() => draftOf(task, initial));
  const [busy, setBusy] = useState(false);
  const [hint, setHint] = useState<string>();
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const regions = options.regions.filter((r) => r.td_id === draft.department_id);
  const workers = options.workers.filter((w) => w.td_id === draft.department_id);
  const routeLabel = (id: number) => options.routes.find((r) => r.route_id === id)?.short_name ?? String(id);
  const complete = draft.number.trim() && draft.date && draft.graphic_type_id && draft.department_id;

  const suggest = async () => {
    if (!draft.department_id || !draft.date) return;
    const { main, incidental } = await bcApi.rotation(draft.department_id, draft.date, draft.graphic_type_id || undefined);
    setDraft((d) => ({
      ...d,
      main: main.map((r) => r.route_id),
      incidental: incidental.map((r) => r.route_id).filter((id) => !main.some((m) => m.route_id === id)),
    }));
    setHint(
      main.length
        ? t('bc.orders.suggestion', { routes: [...main, ...incidental].map((r) => r.short_name).join(', ') })
        : t('bc.orders.noSuggestion'),
    );
  };

  const save = async () => {
    if (!complete) return;
    const body: TaskBody = {
      number: draft.number.trim(),
      date: draft.date,
      graphic_type_id: Number(draft.graphic_type_id),
      department_id: Number(draft.department_id),
      control_region_id: draft.control_region_id === '' ? null : Number(draft.control_region_id),
      worker_ids: draft.worker_ids,
      routes: [
        ...draft.main.map((route_id) => ({ route_id, type: 0 as const })),
        ...draft.incidental.filter((id) => !draft.main.includes(id)).map((route_id) => ({ route_id, type: 1 as const })),
      ],
      note: draft.note.trim() || null,
    };
    setBusy(true);
    try {
      const saved = task ? await bcApi.update(task.id, body) : await bcApi.create(body);
      showMessage(t('bc.orders.saved'), 'success');
      onSaved(saved);
    } catch {
      // the http client has shown the server's message
    } finally {
      setBusy(false);
    }
  };

  const routeInput = (key: 'main' | 'incidental', label: string, testId: string) => (
    <Autocomplete
      multiple
      size="small"
      options={options.routes.map((r) => r.route_id)}
      value={draft[key]}
      onChange={(_, value) => set(key, value)}
      getOptionLabel={(id) => {
        const r = options.routes.find((x) => x.route_id === id);
        return r ? `${r.short_name} ${r.long_name}` : String(id);
      }}
      renderValue={(values, getItemProps) =>
        values.map((id, index) => <Chip size="small" label={routeLabel(id)} {...getItemProps({ index })} key={id} />)
      }
      renderInput={(params) => <TextField {...params} label={label} data-testid={testId} />}
    />
  );

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth data-testid="task-form">
      <DialogTitle>{task ? t('bc.orders.edit', { number: task.number }) : t('bc.orders.create')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Stack direction="row" spacing={2}>
            <TextField
              size="small"
              label={t('bc.fields.number')}
              required
              value={draft.number}
              onChange={(e) => set('number', e.target.value.slice(0, 50))}
              slotProps={{ htmlInput: { 'data-testid': 'task-number' } }}
            />
            <DateField label={t('bc.fields.date')} value={draft.date} onChange={(v) => set('date', v)} testId="task-date" required />
          </Stack>
          <TextField
            select
            size="small"
            label={t('bc.fields.graphic')}
            required
            value={draft.graphic_type_id}
            onChange={(e) => set('graphic_type_id', Number(e.target.value))}
            data-testid="task-graphic"
          >
            {options.graphicTypes.map((g) => (
              <MenuItem key={g.id} value={g.id}>{`${g.title} ${minutesToHhMm(g.start)}–${minutesToHhMm(g.end)}`}</MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label={t('bc.fields.department')}
            required
            value={draft.department_id}
            onChange={(e) => setDraft((d) => ({ ...d, department_id: Number(e.target.value), control_region_id: '', worker_ids: [] }))}
            data-testid="task-department"
          >
            {options.departments.map((d) => (
              <MenuItem key={d.id} value={d.id}>
                {d.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label={t('bc.fields.region')}
            value={draft.control_region_id}
            onChange={(e) => set('control_region_id', e.target.value === '' ? '' : Number(e.target.value))}
            disabled={!draft.department_id}
            data-testid="task-region"
          >
            <MenuItem value="">—</MenuItem>
            {regions.map((r) => (
              <MenuItem key={r.id} value={r.id}>
                {r.name}
              </MenuItem>
            ))}
          </TextField>
          <Autocomplete
            multiple
            size="small"
            options={workers.map((w) => w.id)}
            value={draft.worker_ids}
            onChange={(_, value) => set('worker_ids', value)}
            disabled={!draft.department_id}
            getOptionLabel={(id) => options.workers.find((w) => w.id === id)?.fio ?? String(id)}
            renderInput={(params) => <TextField {...params} label={t('bc.fields.workers')} data-testid="task-workers" />}
          />
          {routeInput('main', t('bc.fields.mainRoutes'), 'task-main-routes')}
          {routeInput('incidental', t('bc.fields.incidentalRoutes'), 'task-incidental-routes')}
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Button size="small" onClick={() => void suggest()} disabled={!draft.department_id || !draft.date} data-testid="task-suggest">
              {t('bc.orders.suggest')}
            </Button>
          </Stack>
          {hint && (
            <Alert severity="info" data-testid="task-suggestion">
              {hint}
            </Alert>
          )}
          <TextField
            size="small"
            label={t('bc.fields.note')}
            multiline
            minRows={2}
            value={draft.note}
            onChange={(e) => set('note', e.target.value.slice(0, 2000))}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('bc.orders.cancel')}</Button>
        <Button variant="contained" onClick={() => void save()} disabled={!complete || busy} data-testid="task-save">
          {t('bc.orders.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
