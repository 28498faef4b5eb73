import { PopupLayer } from '../layers/PopupLayer';
import { select, useLatestVehicles, useMapState, useSelection, type MapSelection } from '../../../web/map/mapState';
import { clusterKey } from '../../../web/map/vehicleSnapshot';
import { MapPopupDepot } from '../../../web/map/popup/MapPopupDepot';
import { MapPopupIncident } from './MapPopupIncident';
import { MapPopupRoute } from './MapPopupRoute';
import { MapPopupStop } from '../../../web/map/popup/MapPopupStop';
import { MapPopupVehicle } from '../../../web/map/popup/MapPopupVehicle';

function Content({ current }: { current: MapSelection }) {
  switch (current.kind) {
    case 'vehicle':
      return <MapPopupVehicle id={current.id} />;
    case 'stop':
      return <MapPopupStop id={current.id} name={current.name} at={current.at} />;
    case 'route':
      return <MapPopupRoute route={current.route} />;
    case 'incident':
      return <MapPopupIncident incident={current.incident} />;
    default:
      return <MapPopupDepot kind={current.kind} depot={current.depot} />;
  }
}

/** Where the popup stands: a vehicle's popup follows the vehicle as the stream moves it. */
function usePosition(current: MapSelection | null): [number, number] | null {
  const vehicles = useLatestVehicles();
  if (!current) return null;
  if (current.kind !== 'vehicle') return current.at;
  return vehicles.get(clusterKey({ type: 'vehicle', id: current.id }))?.center ?? current.at;
}

/** The map screen's one details popup (spec: one popup; closing it clears the selection). */
export function MapPopup() {
  const state = useMapState();
  const current = useSelection();
  const position = usePosition(current);
  return (
    <PopupLayer openKey={current} at={position} onClose={() => select(state, null)} testId="map-popup" className="map-details-popup">
      {current && <Content key={`${current.kind}:${current.id}`} current={current} />}
    </PopupLayer>
  );
}
