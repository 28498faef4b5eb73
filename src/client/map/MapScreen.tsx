import './map.css';
import { useEffect, useMemo, useState } from 'react';
import { Box } from '@mui/material';
import { Title } from 'react-admin';
import { useSearchParams } from 'react-router';
import { DISPATCH_RIGHTS_PATH } from '../../shared/dispatch/api';
import { useRights } from '../../web/components/useRights';
import { LAYOUT } from '../../shared/constants';
import { isEnabled } from '../../shared/modules';
import { canAccess } from '../../shared/permissions';
import { CONSOLE_ROUTES } from '../../shared/routes';
import { useT } from '../../web/i18n/translate';
import { getMapPositions } from '../../web/stores/mapPositionStore';
import { useCurrentUser, useSwitches } from '../../web/stores/sessionStore';
import { filteredVehicleIds } from '../../web/map/filter/mapFilter';
import { useMapFilters } from './filter/useMapFilters';
import { MapCursorCoordinates } from './MapCursorCoordinates';
import { MapLegend } from './MapLegend';
import { MapColourModes } from './MapColourModes';
import { useAdherenceColours, useColourMode } from './live/useAdherenceColours';
import { locateStop, locateVehicle } from '../../web/map/locate';
import { BaseMap } from '../../web/map/base/BaseMap';
import { MapIncidentsPanel } from './MapIncidentsPanel';
import { useLayers, type MapFlags } from './mapLayers';
import {
  createMapState,
  MapStateProvider,
  select,
  useFilterSelection,
  useMapInstance,
  useMapState,
  usePickedRoutes,
} from '../../web/map/mapState';
import {
  ScreenDepots,
  ScreenIncidents,
  ScreenRoutes,
  ScreenStops,
  ScreenTrack,
  ScreenVehicles,
  ScreenView,
} from '../../web/map/MapScreenLayers';
import { MapStatus } from './MapStatus';
import { MapToolbar, type MapMode } from './MapToolbar';
import { MapPopup } from './popup/MapPopup';
import { ReplayPanel } from './replay/ReplayPanel';
import { clearReplay, createReplayState, ReplayStateProvider, useReplayStore } from '../../web/map/replay/replayState';
import { useBranchAgency } from '../../web/map/useBranchAgency';

/**
 * /map: live vehicles (right /map/currentData) or the replay of a vehicle's track (right /map/previousData)
 * over routes, stops, enterprises, branches, departments and driver-assistance incidents. The screen wires
 * its stores to the base map's layers (MapScreenLayers.tsx). Its state (selection, filter, replay…) lives
 * with the screen and goes when it is left.
 */
export default function MapScreen() {
  const [state] = useState(() => createMapState());
  const [replay] = useState(() => createReplayState());
  return (
    <MapStateProvider state={state}>
      <ReplayStateProvider replay={replay}>
        <MapScreenContent />
      </ReplayStateProvider>
    </MapStateProvider>
  );
}

function MapScreenContent() {
  const t = useT();
  const state = useMapState();
  const replay = useReplayStore();
  const user = useCurrentUser();
  const switches = useSwitches();
  const modes = useMemo(
    () => (['live', 'previous'] as const).filter((m) => canAccess(user, m === 'live' ? '/map/currentData' : '/map/previousData')),
    [user],
  );
  const [chosen, setMode] = useState<MapMode>('live');
  const mode = modes.includes(chosen) ? chosen : (modes[0] ?? 'live');
  const layers = useLayers();
  const { filters } = useMapFilters();
  const selection = useFilterSelection();
  const picked = usePickedRoutes();
  const vehicleIds = useMemo(() => filteredVehicleIds(filters, selection), [filters, selection]);
  const routeIds = useMemo(() => [...new Set([...selection.routes, ...picked])], [selection.routes, picked]);
  const adasRouteAvailable = useMemo(
    () =>
      isEnabled(switches, 'adas') && CONSOLE_ROUTES.some((route) => route.module === 'adas' && canAccess(user, route.key ?? route.path)),
    [switches, user],
  );
  const flags: MapFlags = { adasLayer: layers.incidents && adasRouteAvailable, adasRouteAvailable };
  const depots = useBranchAgency(layers.depots || layers.depotPoints);
  const live = mode === 'live' && modes.includes('live');
  // the user's saved position after login, the spec's default otherwise
  const [start] = useState(() => getMapPositions().current);
  const dispatchView = useRights(DISPATCH_RIGHTS_PATH).read;
  const colourMode = useColourMode();
  const adherence = dispatchView && colourMode === 'adherence' && live && layers.vehicles;
  const { colourOf, legend } = useAdherenceColours(adherence);
  useLocateFromAddress(live);

  useEffect(() => {
    select(state, null);
    if (mode === 'live') clearReplay(replay);
  }, [state, replay, mode]);

  return (
    <Box
      sx={{ display: 'flex', flexDirection: 'column', height: `calc(100dvh - ${LAYOUT.header}px)`, mx: -1 }}
      data-testid="map-screen"
      data-mode={mode}
    >
      <Title title={t('menu.map')} />
      <MapToolbar mode={mode} modes={modes} onMode={setMode} filters={filters} flags={flags} />
      <Box sx={{ position: 'relative', flex: 1, minHeight: 0 }}>
        <BaseMap center={[start.lat, start.lon]} zoom={start.zoom} canvas testId="map" onMap={state.mapInstance.set}>
          <ScreenView />
          {layers.routes && <ScreenRoutes ids={routeIds} />}
          {layers.stops && <ScreenStops />}
          {depots && layers.depotPoints && <ScreenDepots data={depots} points />}
          {depots && layers.depots && <ScreenDepots data={depots} points={false} />}
          {flags.adasLayer && <ScreenIncidents />}
          {live && layers.vehicles && (
            <ScreenVehicles vehicleIds={vehicleIds} colourOf={colourOf} colourMode={adherence ? 'adherence' : 'class'} />
          )}
          {mode === 'previous' && <ScreenTrack />}
          <MapPopup />
        </BaseMap>
        <MapCursorCoordinates />
        {live && layers.vehicles && (
          <MapLegend entries={adherence ? legend : undefined} modes={dispatchView ? <MapColourModes /> : undefined} />
        )}
        <MapStatus live={live && layers.vehicles} />
        {flags.adasLayer && <MapIncidentsPanel />}
        {mode === 'previous' && <ReplayPanel filters={filters} />}
      </Box>
    </Box>
  );
}

/**
 * `/map?vehicle=<id>` (the dispatch board's link) and `/map?stop=<id>` centre on the vehicle or the stop and open
 * its card, once the live map is there; the parameter is then dropped from the address.
 */
function useLocateFromAddress(live: boolean): void {
  const [params, setParams] = useSearchParams();
  const state = useMapState();
  const map = useMapInstance();
  const vehicle = Number(params.get('vehicle'));
  const stop = Number(params.get('stop'));
  useEffect(() => {
    const valid = (id: number) => Number.isInteger(id) && id > 0;
    if (!live || !map || (!valid(vehicle) && !valid(stop))) return;
    if (valid(vehicle)) void locateVehicle(state, vehicle).catch(() => undefined);
    else void locateStop(state, stop).catch(() => undefined);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('vehicle');
        next.delete('stop');
        return next;
      },
      { replace: true },
    );
  }, [state, live, map, vehicle, stop, setParams]);
}
