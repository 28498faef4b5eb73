import { useState } from 'react';
import { Button, MenuItem, Stack, TextField } from '@mui/material';
import { minutesToHhMm } from '../../shared/time';
import { minutesOfEntry } from '../handbooks/inputs/minutesEntry';
import { useT } from '../../web/i18n/translate';
import { useApiQuery } from '../../web/providers/queries';
import { showMessage } from '../../web/stores/messageStore';
import { configurations, startRollout } from './equipmentApi';

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

/** Starting a rollout to the group: the configuration, the first share, the error threshold, the window. */
export function RolloutForm({ groupId, onStarted }: { groupId: number; onStarted: () => void }) {
  const t = useT();
  const { data: list = [] } = useApiQuery(['equipment', 'configurations'], () => configurations());
  const [configurationId, setConfigurationId] = useState<number | ''>('');
  const [firstShare, setFirstShare] = useState('20');
  const [threshold, setThreshold] = useState('10');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
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
