import { Suspense, lazy, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Box, Typography } from '@mui/material';
import type L from 'leaflet';
import { Marker } from 'react-leaflet';
import type { GeocoderItem } from '../../shared/geocoder';
import type { BranchAgency } from '../../shared/map';
import { DISPATCH_RIGHTS_PATH } from '../../shared/dispatch/api';
import { isEnabled } from '../../shared/modules';
import { canAccess } from '../../shared/permissions';
import { mayAccess } from '../../shared/routeAccess';
import { useDepartmentMap } from '../../web/bc/useDepartmentMap';
import { useT } from '../../web/i18n/translate';
import { BaseMap } from '../../web/map/base/BaseMap';
import { ControlRegionsLayer } from '../../web/map/layers/ControlRegionsLayer';
import { ControllersLayer } from '../../web/map/layers/ControllersLayer';
import { RoutesLayer } from '../../web/map/layers/RoutesLayer';
import { ViewLayer } from '../../web/map/layers/ViewLayer';
import { ScreenDepots, ScreenRoutes, ScreenStops, ScreenVehicles, useDrawnRoutes } from '../../web/map/MapScreenLayers';
import { createMapState, MapStateProvider, select, useMapState, usePickedRoutes, useSelection } from '../../web/map/mapState';
import { useBranchAgency } from '../../web/map/useBranchAgency';
import { useCurrentUser, useSwitches } from '../../web/stores/sessionStore';
import type { ControllerTask } from '../../shared/bc/tasks';
import { AddressSearchBox } from './AddressSearchBox';
import { FieldMapButtons } from './FieldMapButtons';
import { fieldMapStart } from './fieldMapStream';
import { ADDRESS_ZOOM, FIELD_MAP_ZOOM } from './fieldMapConstants';
import { MODE_LAYERS, readLayers, saveLayer, type FieldLayer, type FieldMapMode } from './fieldMapLayers';
import { clearFieldSelection, createRegionSelection, selectRegion, useRegionSelection, type RegionSelection } from './fieldSelection';
import { nearUser } from './nearVehicles';
import { useQueryFlag } from './useQueryFlag';
import { UserPositionLayer } from './UserPositionLayer';
import { useUserPosition } from './useUserPosition';

// what the first picture of vehicles does not need loads when first opened (a phone on 3G waits less for the map)
const EntitySearchPopup = lazy(() => import('./EntitySearchPopup').then((m) => ({ default: m.EntitySearchPopup })));
const FieldLayersPopup = lazy(() => import('./FieldLayersPopup').then((m) => ({ default: m.FieldLayersPopup })));
const FieldMapDetails = lazy(() => import('./FieldMapDetails').then((m) => ({ default: m.FieldMapDetails })));
const NearArrivalsPanel = lazy(() => import('./NearArrivalsPanel').then((m) => ({ default: m.NearArrivalsPanel })));

/** Which departments' control data the mode reads: all (null), the order's, or none yet (undefined). */
function departmentIds(
  mode: FieldMapMode,
  regionsShown: boolean,
  loaded: boolean,
  departmentId: number | null,
): number[] | null | undefined {
  if (mode === 'map') return regionsShown ? null : undefined;
  if (!loaded) return undefined;
  if (mode === 'currentRegion') return departmentId !== null ? [departmentId] : undefined;
  return departmentId !== null ? [departmentId] : null;
}

/**
 * The field app's map (field-app spec 2.3, 4) in its three modes: the default map (/map), department control
 * (/bc/departmentcontroll: the control process of the controller's department, or all, with the controllers)
 * and current region (/bc/currentregion: the order's department and routes; nothing without an order).
 * The console's base map, layers and geo stream; layer visibility kept on the phone per mode. The control
 * modes' wrappers (src/mobile/bc/BcMapScreen.tsx) pass the order, so /map loads nothing of ticket control.
 * Its state (selection, picked routes, the chosen control region…) lives with the screen.
 */
export function FieldMapScreen({
  mode,
  order,
}: {
  mode: FieldMapMode;
  /** The controller's order of the day in the control modes (src/mobile/bc reads it): loaded, and the order if any. */
  order?: { loaded: boolean; task: ControllerTask | null };
}) {
  const [state] = useState(() => createMapState());
  const [region] = useState(() => createRegionSelection());
  return (
    <MapStateProvider state={state}>
      <FieldMapContent mode={mode} order={order} regionSelection={region} />
    </MapStateProvider>
  );
}

function FieldMapContent({
  mode,
  order,
  regionSelection,
}: {
  mode: FieldMapMode;
  order?: { loaded: boolean; task: ControllerTask | null };
  regionSelection: RegionSelection;
}) {
  const t = useT();
  const state = useMapState();
  const user = useCurrentUser();
  const switches = useSwitches();
  const control = mode !== 'map';
  const bcAllowed = isEnabled(switches, 'bc') && canAccess(user, '/bc/departmentcontroll');
  const offered = useMemo(
    () => MODE_LAYERS[mode].filter((layer) => bcAllowed || (layer !== 'regions' && layer !== 'controllers')),
    [mode, bcAllowed],
  );
  const [layers, setLayers] = useState(() => readLayers(mode));
  const shown = (layer: FieldLayer) => layers[layer] && offered.includes(layer);
  const [showLayers, setShowLayers] = useQueryFlag('showLayers');
  const [showSearch, setShowSearch] = useQueryFlag('showEntitiesSearchPopup');
  // the arrivals near the user: the live timetable's stop arrivals, for its readers while its module is on
  const arrivalsAllowed = mayAccess(user, switches, DISPATCH_RIGHTS_PATH, 'read');
  const [showArrivals, setShowArrivals] = useQueryFlag('showArrivals');
  const { position, denied } = useUserPosition();
  const ringed = useMemo(() => (position ? nearUser(position.at) : undefined), [position]);
  const [map, setMap] = useState<L.Map | null>(null);
  const [address, setAddress] = useState<GeocoderItem | null>(null);
  const current = useSelection();
  const region = useRegionSelection(regionSelection);
  const selected = (current !== null && current.kind !== 'incident') || region !== null;

  const { loaded, task } = order ?? { loaded: true, task: null };
  const departmentData = useDepartmentMap(
    bcAllowed ? departmentIds(mode, shown('regions') || shown('controllers'), loaded, task?.department_id ?? null) : undefined,
  );
  const regions = useMemo(() => departmentData?.regions ?? [], [departmentData]);
  const branchAgency = useBranchAgency(shown('agencies') || shown('branches') || shown('departments'));
  const depots = useMemo(
    (): BranchAgency | null =>
      branchAgency
        ? {
            ...branchAgency,
            agencies: shown('agencies') ? branchAgency.agencies : [],
            depots: shown('branches') ? branchAgency.depots : [],
          }
        : null,
    [branchAgency, layers, offered],
  ); // eslint-disable-line react-hooks/exhaustive-deps

  // routes: the order's in current-region mode, else those picked from the search, a stop or a vehicle
  const picked = usePickedRoutes();
  const taskRoutes = useDrawnRoutes(mode === 'currentRegion' && task ? task.routes.map((r) => r.route_id) : []);

  const toggle = useCallback((layer: FieldLayer, on: boolean) => setLayers(saveLayer(mode, layer, on)), [mode]);
  // a route picked anywhere is drawn: its layer comes on
  const pickedCount = useRef(picked.length);
  useEffect(() => {
    if (picked.length > pickedCount.current && !layers.routes && offered.includes('routes')) toggle('routes', true);
    pickedCount.current = picked.length;
  }, [picked, layers.routes, offered, toggle]);

  const onMap = useCallback(
    (instance: L.Map | null) => {
      // the right-hand buttons zoom; Leaflet's own control would sit under the address box
      instance?.zoomControl?.remove();
      state.mapInstance.set(instance);
      setMap(instance);
    },
    [state],
  );

  // the container carries data-zoom (ViewLayer) and data-center once a move settles (what the e2e tests read)
  const showCentre = useCallback(
    (view: { lat: number; lon: number }) => {
      const container = state.mapInstance.get()?.getContainer();
      if (container) container.dataset.center = `${view.lat},${view.lon}`;
    },
    [state],
  );
  const [start] = useState<[number, number]>(() => fieldMapStart(user));
  if (mode === 'currentRegion' && loaded && !task) {
    return (
      <Typography sx={{ p: 2 }} color="text.secondary" data-testid="current-region-empty">
        {t('mobile.bc.noRegion')}
      </Typography>
    );
  }
  const openArrivals = () => {
    clearFieldSelection(state, regionSelection);
    setShowArrivals(true);
  };
  const showStop = (stop: { id: number; name: string; lat: number; lon: number }) => {
    setShowArrivals(false);
    map?.setView([stop.lat, stop.lon], Math.max(map.getZoom(), FIELD_MAP_ZOOM.start));
    select(state, { kind: 'stop', id: stop.id, at: [stop.lat, stop.lon], name: stop.name });
  };
  const chooseAddress = (item: GeocoderItem) => {
    setAddress(item);
    clearFieldSelection(state, regionSelection);
    map?.setView([item.lat, item.lon], ADDRESS_ZOOM);
  };

  return (
    <Box sx={{ position: 'relative', flex: 1, minHeight: 300, touchAction: 'none' }} data-testid="field-map-screen" data-mode={mode}>
      <BaseMap center={start} zoom={FIELD_MAP_ZOOM.start} zoomLimits={FIELD_MAP_ZOOM} canvas testId="field-map" onMap={onMap}>
        {shown('regions') && (
          <ControlRegionsLayer regions={regions} fit={control} onRegionClick={(r) => selectRegion(state, regionSelection, r.cd_id)} />
        )}
        {mode === 'currentRegion' && shown('routes') && (
          <RoutesLayer routes={taskRoutes} onRouteClick={(route, at) => select(state, { kind: 'route', id: route.route_id, at, route })} />
        )}
        {mode !== 'currentRegion' && shown('routes') && <ScreenRoutes ids={picked} />}
        {shown('stops') && <ScreenStops />}
        {depots && <ScreenDepots data={depots} points={false} />}
        {branchAgency && shown('departments') && <ScreenDepots data={branchAgency} points />}
        {shown('controllers') && departmentData && <ControllersLayer controllers={departmentData.controllers} />}
        <ViewLayer onViewChange={showCentre} />
        <ScreenVehicles vehicleIds={null} ringed={ringed} />
        <UserPositionLayer position={position} />
        {address && <Marker position={[address.lat, address.lon]} title={address.label} />}
      </BaseMap>
      <FieldMapButtons
        onLayers={() => setShowLayers(!showLayers)}
        onZoomIn={() => map?.zoomIn()}
        onZoomOut={() => map?.zoomOut()}
        onSearch={control ? undefined : () => setShowSearch(true)}
        onArrivals={arrivalsAllowed ? openArrivals : undefined}
        onLocate={() => position && map?.setView(position.at, Math.max(map.getZoom(), FIELD_MAP_ZOOM.start))}
        locateDisabled={!position}
      />
      {!control && <AddressSearchBox onChoose={chooseAddress} />}
      <Suspense fallback={null}>
        {showLayers && <FieldLayersPopup offered={offered} layers={layers} onToggle={toggle} onClose={() => setShowLayers(false)} />}
        {!control && showSearch && <EntitySearchPopup onClose={() => setShowSearch(false)} />}
        {arrivalsAllowed && showArrivals ? (
          <NearArrivalsPanel position={position} denied={denied} onClose={() => setShowArrivals(false)} onShowStop={showStop} />
        ) : (
          selected && <FieldMapDetails regionSelection={regionSelection} />
        )}
      </Suspense>
    </Box>
  );
}

export default function FieldMap() {
  return <FieldMapScreen mode="map" />;
}
