import { ToggleButton, ToggleButtonGroup } from '@mui/material';
import { useT } from '../../web/i18n/translate';
import { colourMode, useColourMode, type ColourMode } from './live/useAdherenceColours';

/** The legend's switch of the vehicle colours: by class or by the timetable's adherence (code 44, module dispatch). */
export function MapColourModes() {
  const t = useT();
  const mode = useColourMode();
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={mode}
      onChange={(_, next: ColourMode | null) => next && colourMode.set(next)}
      aria-label={t('dispatch.map.colourMode')}
      sx={{ display: 'flex', mt: 0.5, '& .MuiToggleButton-root': { py: 0, px: 0.75, fontSize: 11, textTransform: 'none' } }}
    >
      <ToggleButton value="class" data-testid="map-colour-class">
        {t('dispatch.map.byClass')}
      </ToggleButton>
      <ToggleButton value="adherence" data-testid="map-colour-adherence">
        {t('dispatch.map.byAdherence')}
      </ToggleButton>
    </ToggleButtonGroup>
  );
}
