import { IconButton, Paper } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { RegionDetailsCard } from '../../web/bc/RegionDetailsCard';
import { useT } from '../../web/i18n/translate';
import { useMapState, useSelection, type MapSelection } from '../../web/map/mapState';
import { MapPopupDepot } from '../../web/map/popup/MapPopupDepot';
import { MapPopupStop } from '../../web/map/popup/MapPopupStop';
import { MapPopupVehicle } from '../../web/map/popup/MapPopupVehicle';
import { clearFieldSelection, useRegionSelection, type RegionSelection } from './fieldSelection';
import { FieldRouteDetails } from './FieldRouteDetails';

function Content({ current }: { current: MapSelection }) {
  switch (current.kind) {
    case 'vehicle':
      return <MapPopupVehicle id={current.id} field />;
    case 'stop':
      return <MapPopupStop id={current.id} name={current.name} at={current.at} />;
    case 'route':
      return <FieldRouteDetails route={current.route} />;
    case 'incident':
      return null;
    default:
      return <MapPopupDepot kind={current.kind} depot={current.depot} />;
  }
}

/**
 * The one details popup of the field map (field-app spec 2.3, 4): a card over the bottom of the map for the
 * tapped vehicle, stop, route, agency, branch, department or control region; closing it clears the selection.
 */
export function FieldMapDetails({ regionSelection }: { regionSelection: RegionSelection }) {
  const t = useT();
  const state = useMapState();
  const current = useSelection();
  const region = useRegionSelection(regionSelection);
  const close = () => clearFieldSelection(state, regionSelection);
  if (region !== null) {
    return (
      <Paper
        elevation={0}
        sx={{ position: 'absolute', left: 8, right: 8, bottom: 8, zIndex: 1050 }}
        data-testid="field-map-details"
        data-kind="region"
      >
        <RegionDetailsCard key={region} regionId={region} onClose={close} />
      </Paper>
    );
  }
  if (!current || current.kind === 'incident') return null;
  return (
    <Paper
      elevation={6}
      sx={{ position: 'absolute', left: 8, right: 8, bottom: 8, zIndex: 1050, p: 1.5, maxHeight: '45%', overflowY: 'auto' }}
      data-testid="field-map-details"
      data-kind={current.kind}
    >
      <IconButton
        size="small"
        onClick={close}
        aria-label={t('fieldMap.close')}
        sx={{ position: 'absolute', right: 4, top: 4 }}
        data-testid="field-map-details-close"
      >
        <CloseIcon fontSize="small" />
      </IconButton>
      <Content key={`${current.kind}:${current.id}`} current={current} />
    </Paper>
  );
}
