import { useState } from 'react';
import { Checkbox, FormControlLabel, FormGroup, IconButton, Popover, Tooltip, Typography } from '@mui/material';
import LayersIcon from '@mui/icons-material/Layers';
import { useT } from '../../web/i18n/translate';
import { MAP_LAYERS, setLayer, useLayers, type MapFlags } from './mapLayers';

/** The layers panel: a checkbox per layer; the incident layer only when its route is available. */
export function MapLayersControl({ flags }: { flags: MapFlags }) {
  const t = useT();
  const layers = useLayers();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const shown = MAP_LAYERS.filter((id) => id !== 'incidents' || flags.adasRouteAvailable);
  return (
    <>
      <Tooltip title={t('mapView.layers.title')}>
        <IconButton
          size="small"
          onClick={(e) => setAnchor(e.currentTarget)}
          aria-label={t('mapView.layers.title')}
          data-testid="map-layers-button"
        >
          <LayersIcon />
        </IconButton>
      </Tooltip>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <FormGroup sx={{ px: 2, py: 1 }} data-testid="map-layers">
          <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
            {t('mapView.layers.title')}
          </Typography>
          {shown.map((id) => (
            <FormControlLabel
              key={id}
              control={<Checkbox size="small" checked={layers[id]} onChange={(e) => setLayer(id, e.target.checked)} />}
              label={t(`mapView.layers.${id}`)}
            />
          ))}
        </FormGroup>
      </Popover>
    </>
  );
}
