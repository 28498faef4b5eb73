import { IconButton, Slider, Stack, ToggleButton, ToggleButtonGroup, Tooltip, Typography } from '@mui/material';
import PauseIcon from '@mui/icons-material/Pause';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import { useT } from '../../../web/i18n/translate';
import { formatDateTime } from '../../../shared/format';
import { REPLAY_SPEEDS, type ReplaySpeed } from '../../../web/map/replay/replayMath';
import { useReplay } from './useReplay';

/** Play, pause, speed (×1, ×4, ×16, ×64) and the time slider with the replay's time and speed. */
export function ReplayPlayer() {
  const t = useT();
  const { track, time, playing, speed, position, play, pause, seek, setSpeed } = useReplay();
  if (!track) return null;
  return (
    <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mt: 1 }} data-testid="replay-player">
      <Tooltip title={playing ? t('mapView.replay.pause') : t('mapView.replay.play')}>
        <IconButton
          color="primary"
          onClick={playing ? pause : play}
          aria-label={playing ? t('mapView.replay.pause') : t('mapView.replay.play')}
          data-testid="replay-play"
        >
          {playing ? <PauseIcon /> : <PlayArrowIcon />}
        </IconButton>
      </Tooltip>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={speed}
        onChange={(_, value: ReplaySpeed | null) => value && setSpeed(value)}
        aria-label={t('mapView.replay.speed')}
      >
        {REPLAY_SPEEDS.map((s) => (
          <ToggleButton key={s} value={s} sx={{ px: 1, py: 0.25 }}>
            ×{s}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <Slider
        size="small"
        min={track.start}
        max={Math.max(track.end, track.start + 1)}
        value={time}
        onChange={(_, value) => seek(Array.isArray(value) ? value[0] : value)}
        valueLabelDisplay="auto"
        valueLabelFormat={(value) => formatDateTime(value)}
        sx={{ flex: 1, minWidth: 160 }}
        slotProps={{ input: { 'aria-label': t('mapView.replay.time') } }}
        data-testid="replay-slider"
        data-time={Math.round(time)}
      />
      <Stack sx={{ minWidth: 150 }}>
        <Typography variant="body2" data-testid="replay-time" sx={{ fontVariantNumeric: 'tabular-nums' }}>
          {formatDateTime(time)}
        </Typography>
        <Typography variant="caption" color="text.secondary" data-testid="replay-speed">
          {t('mapView.kmh', { speed: Math.round(position?.speed ?? 0) })}
        </Typography>
      </Stack>
    </Stack>
  );
}
