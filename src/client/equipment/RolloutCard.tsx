import { useState } from 'react';
import { Box, Button, Card, CardContent, Chip, LinearProgress, Stack, Typography } from '@mui/material';
import { formatDateTime, formatNumber } from '../../shared/format';
import { minutesToHhMm } from '../../shared/time';
import { COMMAND_STATUS, COMMAND_STATUS_CODES } from '../../shared/equipment/commandStatus';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useT } from '../../web/i18n/translate';
import { COMMAND_STATUS_COLOR } from './commandStatusColor';
import { changeRollout } from './equipmentApi';
import type { RolloutRow } from '../../shared/equipment/api';

/** One rollout's live progress: its state, a bar of final commands, the counts per status, its controls. */
export function RolloutCard({
  rollout,
  selected,
  canChange,
  onSelect,
  onChanged,
}: {
  rollout: RolloutRow;
  selected: boolean;
  canChange: boolean;
  onSelect: () => void;
  onChanged: () => void;
}) {
  const t = useT();
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
          {canChange && rollout.state === 'running' && (
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
          {canChange && rollout.state === 'paused' && (
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
          {canChange && (rollout.state === 'running' || rollout.state === 'paused') && (
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
              color={COMMAND_STATUS_COLOR[code]}
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
