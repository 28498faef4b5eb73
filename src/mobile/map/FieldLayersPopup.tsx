import { Checkbox, FormControlLabel, IconButton, Paper, Stack, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { useT } from '../../web/i18n/translate';
import type { FieldLayer, FieldLayers } from './fieldMapLayers';

/** The layers popup (?showLayers): a checkbox per layer the mode offers. */
export function FieldLayersPopup({
  offered,
  layers,
  onToggle,
  onClose,
}: {
  offered: readonly FieldLayer[];
  layers: FieldLayers;
  onToggle: (layer: FieldLayer, on: boolean) => void;
  onClose: () => void;
}) {
  const t = useT();
  return (
    <Paper
      elevation={6}
      sx={{ position: 'absolute', right: 64, top: 12, zIndex: 1100, p: 1.5, pr: 1, minWidth: 220 }}
      data-testid="field-layers"
    >
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="subtitle2">{t('fieldMap.layers.title')}</Typography>
        <IconButton size="small" onClick={onClose} aria-label={t('fieldMap.close')}>
          <CloseIcon fontSize="small" />
        </IconButton>
      </Stack>
      <Stack>
        {offered.map((layer) => (
          <FormControlLabel
            key={layer}
            label={t(`fieldMap.layers.${layer}`)}
            control={
              <Checkbox
                size="small"
                checked={layers[layer]}
                onChange={(e) => onToggle(layer, e.target.checked)}
                slotProps={{ input: { 'data-layer': layer } as object }}
              />
            }
          />
        ))}
      </Stack>
    </Paper>
  );
}
