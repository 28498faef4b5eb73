import { useMemo, useState } from 'react';
import {
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  IconButton,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useNavigate, useSearchParams } from 'react-router';
import { Title } from 'react-admin';
import { STATUS_COLORS, type ControllerTask } from '../../shared/bc/tasks';
import { formatDate, isoDate } from '../../shared/format';
import { minutesToHhMm } from '../../shared/time';
import { useRights } from '../../web/components/useRights';
import { useT } from '../../web/i18n/translate';
import { showMessage } from '../../web/stores/messageStore';
import { bcApi } from '../../web/bc/bcApi';
import { refreshQueries, useApiQuery } from '../../web/providers/queries';
import { TaskFormDialog, suggestNumber } from './TaskFormDialog';
import { useBcOptions } from './useBcOptions';

const pad = (n: number) => String(n).padStart(2, '0');

/** The days of a month 'YYYY-MM' as weeks from Monday, null outside the month. */
export function monthWeeks(month: string): (string | null)[][] {
  const [year, m] = month.split('-').map(Number);
  const first = new Date(Date.UTC(year, m - 1, 1));
  const days = new Date(Date.UTC(year, m, 0)).getUTCDate();
  const lead = (first.getUTCDay() + 6) % 7;
  const cells: (string | null)[] = [
    ...Array.from({ length: lead }, () => null),
    ...Array.from({ length: days }, (_, i) => `${month}-${pad(i + 1)}`),
  ];
  while (cells.length % 7) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, w) => cells.slice(w * 7, w * 7 + 7));
}

const MONTHS = ['Январь', 'Февраль', 'Март', 'Апрель', 'Май', 'Июнь', 'Июль', 'Август', 'Сентябрь', 'Октябрь', 'Ноябрь', 'Декабрь'];
const monthTitle = (month: string) => `${MONTHS[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;

const shiftMonth = (month: string, by: number) => {
  const [year, m] = month.split('-').map(Number);
  const d = new Date(Date.UTC(year, m - 1 + by, 1));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
};

/**
 * /bc/calendar: a department's month, the orders of each day in their status colour. A day's + creates an
 * order on it (with the rotation suggestion in the form), an order opens its form (or its report once closed),
 * and a day's orders copy to other days of the month.
 */
export default function CalendarScreen() {
  const t = useT();
  const navigate = useNavigate();
  const options = useBcOptions();
  const rights = useRights('/bc/calendar');
  const [params, setParams] = useSearchParams();
  const today = isoDate(new Date());
  const month = /^\d{4}-\d{2}$/.test(params.get('month') ?? '') ? params.get('month')! : today.slice(0, 7);
  const department = Number(params.get('department')) || options?.departments[0]?.id || 0;
  const [editing, setEditing] = useState<{ task?: ControllerTask; date?: string } | null>(null);
  const [copying, setCopying] = useState<string | null>(null);
  const weeks = useMemo(() => monthWeeks(month), [month]);
  const set = (key: string, value: string) =>
    setParams((p) => {
      const next = new URLSearchParams(p);
      next.set(key, value);
      return next;
    });

  const last = weeks.flat().filter(Boolean).pop()!;
  const orders = useApiQuery(
    ['bc', 'calendar', department, month],
    (signal) =>
      bcApi.tasks(
        { from: `${month}-01`, to: last, department: [department], sortField: 'date', sortOrder: 'ASC', recordCount: 500 },
        signal,
      ),
    { enabled: Boolean(department), keepPrevious: true },
  );
  const reload = () => void refreshQueries(['bc', 'calendar']);
  const byDay = useMemo(() => {
    const map = new Map<string, ControllerTask[]>();
    for (const task of orders.data?.list ?? []) map.set(task.date, [...(map.get(task.date) ?? []), task]);
    return map;
  }, [orders.data]);

  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 }, minWidth: 0 }}>
      <Title title="menu.bc.calendar" />
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
          <TextField
            select
            size="small"
            fullWidth={false}
            sx={{ minWidth: 260 }}
            label={t('bc.calendar.department')}
            value={department || ''}
            onChange={(e) => set('department', e.target.value)}
            data-testid="calendar-department"
          >
            {options?.departments.map((d) => (
              <MenuItem key={d.id} value={d.id}>
                {d.name}
              </MenuItem>
            ))}
          </TextField>
          <IconButton aria-label={t('bc.calendar.prev')} onClick={() => set('month', shiftMonth(month, -1))}>
            <ChevronLeftIcon />
          </IconButton>
          <Typography variant="h6" sx={{ minWidth: 160, textAlign: 'center' }} data-testid="calendar-month">
            {monthTitle(month)}
          </Typography>
          <IconButton aria-label={t('bc.calendar.next')} onClick={() => set('month', shiftMonth(month, 1))}>
            <ChevronRightIcon />
          </IconButton>
          <Button onClick={() => set('month', today.slice(0, 7))}>{t('bc.calendar.today')}</Button>
        </Stack>
      </Paper>
      {orders.isError && <Typography color="error">{t('loadFailed')}</Typography>}
      <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
        <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(7, minmax(130px, 1fr))' }} data-testid="calendar-grid">
          {t('bc.calendar.weekdays')
            .split(',')
            .map((d) => (
              <Box key={d} sx={{ p: 1, fontWeight: 500, borderBottom: 1, borderColor: 'divider', textAlign: 'center' }}>
                {d}
              </Box>
            ))}
          {weeks.flat().map((day, i) => (
            <Box
              key={day ?? `x${i}`}
              data-testid={day ? 'calendar-day' : undefined}
              data-date={day ?? undefined}
              sx={{
                minHeight: 110,
                p: 0.5,
                borderRight: 1,
                borderBottom: 1,
                borderColor: 'divider',
                bgcolor: day === today ? 'action.selected' : day ? undefined : 'action.hover',
              }}
            >
              {day && (
                <>
                  <Stack direction="row" sx={{ alignItems: 'center' }}>
                    <Typography variant="body2" sx={{ fontWeight: day === today ? 700 : 400, flex: 1 }}>
                      {Number(day.slice(8))}
                    </Typography>
                    {rights.create && (byDay.get(day)?.length ?? 0) > 0 && (
                      <Tooltip title={t('bc.calendar.copy')}>
                        <IconButton size="small" onClick={() => setCopying(day)} data-testid="calendar-copy">
                          <ContentCopyIcon sx={{ fontSize: 16 }} />
                        </IconButton>
                      </Tooltip>
                    )}
                    {rights.create && (
                      <Tooltip title={t('bc.calendar.add')}>
                        <IconButton size="small" onClick={() => setEditing({ date: day })} data-testid="calendar-add">
                          <AddIcon sx={{ fontSize: 18 }} />
                        </IconButton>
                      </Tooltip>
                    )}
                  </Stack>
                  <Stack spacing={0.25}>
                    {(byDay.get(day) ?? []).map((task) => (
                      <Box
                        key={task.id}
                        component="button"
                        type="button"
                        data-testid="calendar-task"
                        data-status={task.status}
                        title={`${task.number}, ${task.graphic_type}: ${task.workers.map((w) => w.fio).join(', ')}; ${task.routes.map((r) => r.short_name).join(', ')}`}
                        onClick={() =>
                          task.status === 'closed' || task.status === 'not_achieved'
                            ? navigate(`/bc/result/${task.id}`)
                            : setEditing({ task })
                        }
                        sx={{
                          all: 'unset',
                          cursor: 'pointer',
                          fontSize: 12,
                          px: 0.75,
                          py: 0.25,
                          borderRadius: 1,
                          color: '#fff',
                          bgcolor: STATUS_COLORS[task.status],
                          overflow: 'hidden',
                          textOverflow: 'ellipsis',
                          whiteSpace: 'nowrap',
                        }}
                      >
                        {`${minutesToHhMm(task.graphicType_start)} ${task.number} · ${task.workers.length}`}
                      </Box>
                    ))}
                  </Stack>
                </>
              )}
            </Box>
          ))}
        </Box>
      </Paper>
      {editing && options && (
        <TaskFormDialog
          options={options}
          task={editing.task}
          initial={{
            date: editing.date,
            department_id: department || '',
            number: suggestNumber(editing.date ?? '', department || '', (byDay.get(editing.date ?? '')?.length ?? 0) + 1),
          }}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            reload();
          }}
        />
      )}
      {copying && (
        <CopyDayDialog
          day={copying}
          days={weeks.flat().filter((d): d is string => d !== null && d !== copying)}
          onClose={() => setCopying(null)}
          onCopy={async (to) => {
            const { created } = await bcApi.copyDay(copying, to, department);
            showMessage(t('bc.calendar.copied', { count: created }), 'success');
            setCopying(null);
            reload();
          }}
        />
      )}
    </Stack>
  );
}

function CopyDayDialog({
  day,
  days,
  onClose,
  onCopy,
}: {
  day: string;
  days: string[];
  onClose: () => void;
  onCopy: (to: string[]) => Promise<void>;
}) {
  const t = useT();
  const [chosen, setChosen] = useState<string[]>([]);
  return (
    <Dialog open onClose={onClose} data-testid="calendar-copy-dialog">
      <DialogTitle>{t('bc.calendar.copyTitle', { date: formatDate(day) })}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" gutterBottom>
          {t('bc.calendar.copyTo')}
        </Typography>
        <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(7, auto)' }}>
          {days.map((d) => (
            <FormControlLabel
              key={d}
              label={Number(d.slice(8))}
              control={
                <Checkbox
                  size="small"
                  checked={chosen.includes(d)}
                  onChange={(e) => setChosen((c) => (e.target.checked ? [...c, d] : c.filter((x) => x !== d)))}
                />
              }
            />
          ))}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('bc.orders.cancel')}</Button>
        <Button variant="contained" disabled={!chosen.length} onClick={() => void onCopy(chosen)} data-testid="calendar-copy-confirm">
          {t('bc.calendar.copy')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
