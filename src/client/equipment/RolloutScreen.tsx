import { useCallback, useEffect, useState } from 'react';
import {
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  LinearProgress,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { Title } from 'react-admin';
import { Link, useLocation } from 'react-router';
import { formatDateTime, formatNumber } from '../../shared/format';
import { minutesToHhMm } from '../../shared/time';
import { minutesOfEntry } from '../handbooks/inputs/minutesEntry';
import { COMMAND_STATUS, COMMAND_STATUS_CODES } from '../../shared/equipment/commandStatus';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useRights } from '../../web/components/useRights';
import { useT } from '../../web/i18n/translate';
import { showMessage } from '../../web/stores/messageStore';
import { changeRollout, configurations, group, groupRollouts, rolloutCommands, startRollout } from './equipmentApi';
import type { CommandList, ConfigurationRow, GroupDetails, RolloutRow } from '../../shared/equipment/api';

const PATH = '/mnt-configuration/configurations';
const REFRESH_MS = 2000;
const DAY_MINUTES = 24 * 60;
/** A window end's minutes by the shared time rule ('25:00' is 00:00, bare digits are minutes); null when not a time of day. */
const minutesOf = (text: string): number | null => {
  const minutes = minutesOfEntry(text);
  return typeof minutes === 'number' && minutes < DAY_MINUTES ? minutes : null;
};
/** On leaving a window field: its normalised hh:mm, or the text as typed when it is not a time (flagged). */
const normalisedEntry = (text: string): string => {
  const minutes = minutesOf(text);
  return minutes === null ? text : minutesToHhMm(minutes);
};
const STATUS_COLOR: Record<number, 'default' | 'info' | 'warning' | 'success' | 'error'> = {
  1: 'default',
  2: 'info',
  3: 'warning',
  5: 'info',
  6: 'success',
  11: 'error',
  14: 'error',
};

/** Starting a rollout to the group: the configuration, the first share, the error threshold, the window. */
function RolloutForm({ groupId, onStarted }: { groupId: number; onStarted: () => void }) {
  const t = useT();
  const [list, setList] = useState<ConfigurationRow[]>([]);
  const [configurationId, setConfigurationId] = useState<number | ''>('');
  const [firstShare, setFirstShare] = useState('20');
  const [threshold, setThreshold] = useState('10');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  useEffect(() => void configurations().then(setList, () => undefined), []);
  const windowOk = (from === '' && to === '') || (minutesOf(from) !== null && minutesOf(to) !== null);
  const start = () => {
    startRollout({
      groupId,
      configurationId: Number(configurationId),
      firstShare: Number(firstShare),
      errorThreshold: Number(threshold),
      windowFrom: from ? minutesOf(from) : null,
      windowTo: to ? minutesOf(to) : null,
    }).then(
      (r) => {
        showMessage(t('equipment.rollout.started', { count: r.commands }), 'success');
        onStarted();
      },
      () => undefined,
    );
  };
  return (
    <Stack direction="row" spacing={1} data-testid="rollout-form" sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      <TextField
        select
        size="small"
        label={t('equipment.rollout.configuration')}
        value={configurationId}
        onChange={(e) => setConfigurationId(Number(e.target.value))}
        sx={{ minWidth: 240 }}
        slotProps={{ htmlInput: { 'data-testid': 'rollout-configuration' } }}
      >
        {list.map((c) => (
          <MenuItem key={c.id} value={c.id}>
            {c.name} v{c.version}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        size="small"
        type="number"
        label={t('equipment.rollout.firstShare')}
        value={firstShare}
        onChange={(e) => setFirstShare(e.target.value)}
        sx={{ width: 200 }}
        slotProps={{ htmlInput: { min: 1, max: 100, 'data-testid': 'rollout-first-share' } }}
      />
      <TextField
        size="small"
        type="number"
        label={t('equipment.rollout.errorThreshold')}
        value={threshold}
        onChange={(e) => setThreshold(e.target.value)}
        sx={{ width: 160 }}
        slotProps={{ htmlInput: { min: 0, max: 100, 'data-testid': 'rollout-threshold' } }}
      />
      <TextField
        size="small"
        label={t('equipment.rollout.windowFrom')}
        placeholder="22:00"
        value={from}
        onChange={(e) => setFrom(e.target.value)}
        onBlur={() => setFrom(normalisedEntry)}
        sx={{ width: 120 }}
        error={!windowOk}
        slotProps={{ htmlInput: { 'data-testid': 'rollout-window-from' } }}
      />
      <TextField
        size="small"
        label={t('equipment.rollout.windowTo')}
        placeholder="05:00"
        value={to}
        onChange={(e) => setTo(e.target.value)}
        onBlur={() => setTo(normalisedEntry)}
        sx={{ width: 120 }}
        error={!windowOk}
        slotProps={{ htmlInput: { 'data-testid': 'rollout-window-to' } }}
      />
      <Button
        variant="contained"
        onClick={start}
        disabled={configurationId === '' || !windowOk || !(Number(firstShare) > 0 && Number(firstShare) <= 100)}
        data-testid="rollout-start"
      >
        {t('equipment.rollout.start')}
      </Button>
    </Stack>
  );
}

/** One rollout's live progress: its state, a bar of final commands, the counts per status, its controls. */
function RolloutCard({
  rollout,
  selected,
  onSelect,
  onChanged,
}: {
  rollout: RolloutRow;
  selected: boolean;
  onSelect: () => void;
  onChanged: () => void;
}) {
  const t = useT();
  const rights = useRights(PATH);
  const [cancelling, setCancelling] = useState(false);
  const total = Object.values(rollout.counts).reduce((a, b) => a + b, 0);
  const performed = rollout.counts[COMMAND_STATUS.performed] ?? 0;
  const errors = (rollout.counts[COMMAND_STATUS.error] ?? 0) + (rollout.counts[COMMAND_STATUS.configurationError] ?? 0);
  const act = (action: 'pause' | 'resume' | 'cancel') => changeRollout(rollout.id, action).then(onChanged, () => undefined);
  return (
    <Card
      variant="outlined"
      sx={{ borderColor: selected ? 'primary.main' : undefined, cursor: 'pointer' }}
      onClick={onSelect}
      data-testid={`rollout-${rollout.id}`}
    >
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography variant="subtitle1">
            №{rollout.id} · {rollout.configuration}
          </Typography>
          <Chip
            size="small"
            label={t(`equipment.rolloutStates.${rollout.state}`)}
            color={
              rollout.state === 'finished'
                ? 'success'
                : rollout.state === 'paused'
                  ? 'warning'
                  : rollout.state === 'cancelled'
                    ? 'default'
                    : 'info'
            }
            data-testid="rollout-state"
          />
          <Chip size="small" variant="outlined" label={t('equipment.rollout.phase', { phase: rollout.phase })} />
          {rollout.window_from !== null && rollout.window_to !== null && (
            <Chip
              size="small"
              variant="outlined"
              label={t('equipment.rollout.windowShown', { from: minutesToHhMm(rollout.window_from), to: minutesToHhMm(rollout.window_to) })}
            />
          )}
          <Box sx={{ flex: 1 }} />
          {rights.update && rollout.state === 'running' && (
            <Button
              size="small"
              onClick={(e) => {
                e.stopPropagation();
                void act('pause');
              }}
            >
              {t('equipment.rollout.pause')}
            </Button>
          )}
          {rights.update && rollout.state === 'paused' && (
            <Button
              size="small"
              onClick={(e) => {
                e.stopPropagation();
                void act('resume');
              }}
              data-testid="rollout-resume"
            >
              {t('equipment.rollout.resume')}
            </Button>
          )}
          {rights.update && (rollout.state === 'running' || rollout.state === 'paused') && (
            <Button
              size="small"
              color="error"
              onClick={(e) => {
                e.stopPropagation();
                setCancelling(true);
              }}
            >
              {t('equipment.rollout.cancelRollout')}
            </Button>
          )}
        </Stack>
        <Typography variant="body2" color="text.secondary">
          {formatDateTime(rollout.created_at)} · {rollout.created_by ?? ''} · {rollout.first_share} % / {rollout.error_threshold} %
        </Typography>
        {rollout.pause_reason && rollout.state === 'paused' && (
          <Typography variant="body2" color="warning.main">
            {rollout.pause_reason}
          </Typography>
        )}
        <LinearProgress
          variant="buffer"
          value={total ? (100 * performed) / total : 0}
          valueBuffer={total ? (100 * (performed + errors)) / total : 0}
          sx={{ my: 1 }}
        />
        <Typography variant="body2" data-testid="rollout-progress">
          {t('equipment.rollout.progress', { done: formatNumber(performed), total: formatNumber(total) })}
          {rollout.retrying ? ` · ${t('equipment.rollout.retrying', { count: rollout.retrying })}` : ''}
        </Typography>
        <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', mt: 1 }}>
          {COMMAND_STATUS_CODES.filter((code) => rollout.counts[code]).map((code) => (
            <Chip
              key={code}
              size="small"
              color={STATUS_COLOR[code]}
              label={`${t(`equipment.commandStatuses.${code}`)}: ${formatNumber(rollout.counts[code])}`}
              data-testid={`rollout-count-${code}`}
            />
          ))}
        </Stack>
      </CardContent>
      <ConfirmDialog
        open={cancelling}
        message={t('equipment.rollout.confirmCancel', { id: rollout.id })}
        onClose={() => setCancelling(false)}
        onConfirm={() => {
          setCancelling(false);
          void act('cancel');
        }}
      />
    </Card>
  );
}

/** The commands of one rollout per terminal, by status. */
function CommandTable({ rolloutId, tick }: { rolloutId: number; tick: number }) {
  const t = useT();
  const [status, setStatus] = useState<number | ''>('');
  const [page, setPage] = useState(0);
  const [data, setData] = useState<CommandList>({ total: 0, list: [] });
  useEffect(() => {
    rolloutCommands(rolloutId, { status: status === '' ? undefined : status, offset: page * 50, limit: 50 }).then(setData, () => undefined);
  }, [rolloutId, status, page, tick]);
  return (
    <Box>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', my: 1 }}>
        <Typography variant="subtitle1">{t('equipment.rollout.commands')}</Typography>
        <TextField
          select
          size="small"
          label={t('equipment.rollout.status')}
          value={status}
          onChange={(e) => {
            setStatus(e.target.value === '' ? '' : Number(e.target.value));
            setPage(0);
          }}
          sx={{ minWidth: 220 }}
          slotProps={{ htmlInput: { 'data-testid': 'command-status-filter' } }}
        >
          <MenuItem value="">{t('equipment.rollout.all')}</MenuItem>
          {COMMAND_STATUS_CODES.map((code) => (
            <MenuItem key={code} value={code}>
              {t(`equipment.commandStatuses.${code}`)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <Table size="small" data-testid="commands-table">
        <TableHead>
          <TableRow>
            <TableCell>{t('equipment.rollout.vehicle')}</TableCell>
            <TableCell>{t('equipment.rollout.depot')}</TableCell>
            <TableCell>{t('equipment.rollout.status')}</TableCell>
            <TableCell>{t('equipment.rollout.reason')}</TableCell>
            <TableCell>{t('equipment.rollout.attempts')}</TableCell>
            <TableCell>{t('equipment.rollout.changed')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {data.list.map((c) => (
            <TableRow key={c.id} data-testid="command-row">
              <TableCell>
                {c.depot_number ?? c.vehicle_id}
                {c.state_number ? ` · ${c.state_number}` : ''}
              </TableCell>
              <TableCell>{c.depot_name ?? ''}</TableCell>
              <TableCell>
                <Chip size="small" color={STATUS_COLOR[c.status]} label={t(`equipment.commandStatuses.${c.status}`)} />
              </TableCell>
              <TableCell>
                {c.reason ?? ''}
                {c.retry_at ? ` (${formatDateTime(c.retry_at)})` : ''}
              </TableCell>
              <TableCell>{c.attempts}</TableCell>
              <TableCell>{formatDateTime(c.status_at)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <TablePagination
        component="div"
        count={data.total}
        page={page}
        rowsPerPage={50}
        rowsPerPageOptions={[50]}
        onPageChange={(_, p) => setPage(p)}
      />
    </Box>
  );
}

/** /mnt-configuration/configuration/{group_id} (code 32): roll a configuration out to the group and follow it live. */
export default function RolloutScreen() {
  const t = useT();
  const rights = useRights(PATH);
  const { pathname } = useLocation();
  const groupId = Number(/\/configuration\/(\d+)/.exec(pathname)?.[1]);
  const [details, setDetails] = useState<GroupDetails | null>(null);
  const [rollouts, setRollouts] = useState<RolloutRow[]>([]);
  const [selected, setSelected] = useState<number | null>(null);
  const [tick, setTick] = useState(0);
  const load = useCallback(() => {
    if (!groupId) return;
    groupRollouts(groupId).then(
      (list) => {
        setRollouts(list);
        setSelected((current) => current ?? list[0]?.id ?? null);
      },
      () => undefined,
    );
    setTick((n) => n + 1);
  }, [groupId]);
  useEffect(() => {
    if (groupId) group(groupId).then(setDetails, () => undefined);
    load();
  }, [groupId, load]);
  const live = rollouts.some((r) => r.state === 'running' || r.state === 'paused');
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(load, REFRESH_MS);
    return () => clearInterval(timer);
  }, [live, load]);

  return (
    <Box sx={{ p: 2 }}>
      <Title title={t('equipment.rollout.title', { name: details?.name ?? '' })} />
      <Stack spacing={2}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <Button component={Link} to="/mnt-configuration/vehicle-groups" size="small">
            {t('equipment.rollout.back')}
          </Button>
          <Typography variant="h6">{details?.name}</Typography>
          <Typography data-testid="rollout-group-count">
            {details ? t('equipment.rollout.groupVehicles', { count: formatNumber(details.count) }) : ''}
          </Typography>
        </Stack>
        {rights.create && !live && (
          <RolloutForm
            groupId={groupId}
            onStarted={() => {
              setSelected(null);
              load();
            }}
          />
        )}
        <Typography variant="subtitle1">{t('equipment.rollout.history')}</Typography>
        {!rollouts.length && <Typography color="text.secondary">{t('equipment.rollout.none')}</Typography>}
        {rollouts.map((r) => (
          <RolloutCard key={r.id} rollout={r} selected={r.id === selected} onSelect={() => setSelected(r.id)} onChanged={load} />
        ))}
        {selected !== null && <CommandTable rolloutId={selected} tick={tick} />}
      </Stack>
    </Box>
  );
}
