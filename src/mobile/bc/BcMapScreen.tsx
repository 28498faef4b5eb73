import { useEffect, useMemo, useState } from 'react';
import { Box, Checkbox, Fab, FormControlLabel, Paper, Stack, Typography } from '@mui/material';
import LayersIcon from '@mui/icons-material/LayersOutlined';
import { CircleMarker, Tooltip } from 'react-leaflet';
import { useSearchParams } from 'react-router';
import { useT } from '../../client/i18n/translate';
import { useCurrentUser } from '../../client/stores/sessionStore';
import { RegionDetailsCard } from '../../client/bc/RegionDetailsCard';
import { useDepartmentMap } from '../../client/bc/useDepartmentMap';
import { BaseMap } from '../../client/map/base/BaseMap';
import { ControlRegionsLayer } from '../../client/map/layers/ControlRegionsLayer';
import { ControllersLayer } from '../../client/map/layers/ControllersLayer';
import { RoutesLayer } from '../../client/map/layers/RoutesLayer';
import { loadRoutes, type DrawnRoute } from '../../client/map/routeCache';
import { MODE_LAYERS, readLayers, saveLayers, type BcLayer, type BcMapMode } from './bcMapLayers';
import { useWorkerTask } from './workerTask';

const LAYERS_PARAM = 'showLayers';

/**
 * The ticket-control map modes (field-app spec 2.1, 2.3, 4): department control (the control process of the
 * controller's department, or all, with the controllers' positions) and current region (the selected order's
 * department with the order's routes; nothing without an order). The layers popup opens with showLayers.
 */
function BcMapScreen({ mode }: { mode: BcMapMode }) {
  const t = useT();
  const user = useCurrentUser();
  const { loaded, task } = useWorkerTask(user?.id);
  const [layers, setLayers] = useState(() => readLayers(mode));
  const [params, setParams] = useSearchParams();
  const [region, setRegion] = useState<number | null>(null);
  const [routes, setRoutes] = useState<DrawnRoute[]>([]);
  const ids = task ? [task.department_id] : null;
  const data = useDepartmentMap(!loaded || (mode === 'currentRegion' && !task) ? undefined : ids);
  const routeIds = mode === 'currentRegion' && task ? task.routes.map((r) => r.route_id).join(',') : '';

  useEffect(() => {
    if (!routeIds) return;
    void loadRoutes(routeIds.split(',').map(Number)).then(setRoutes).catch(() => undefined);
  }, [routeIds]);

  const toggle = (layer: BcLayer, on: boolean) => {
    const next = { ...layers, [layer]: on };
    setLayers(next);
    saveLayers(mode, next);
  };
  const showLayers = params.get(LAYERS_PARAM) === 'true';

  // the order's department only (useDepartmentMap asked for it); a stable list, so the layer is not redrawn per render
  const regions = useMemo(() => data?.regions ?? [], [data]);
  if (mode === 'currentRegion' && loaded && !task) {
    return <Typography sx={{ p: 2 }} color="text.secondary" data-testid="current-region-empty">{t('mobile.bc.noRegion')}</Typography>;
  }
  return (
    <Box sx={{ position: 'relative', flex: 1, minHeight: 300 }} data-testid={`bc-map-${mode}`}>
      <BaseMap testId="bc-map" zoom={12}>
        {layers.regions && <ControlRegionsLayer regions={regions} fit onRegionClick={(r) => setRegion(r.cd_id)} />}
        {layers.departments && data?.departments.filter((d) => d.lat !== null && d.lon !== null).map((d) => (
          <CircleMarker key={d.td_id} center={[d.lat!, d.lon!]} radius={8} pathOptions={{ color: '#fff', weight: 2, fillColor: d.td_color, fillOpacity: 1 }}>
            <Tooltip>{d.td_name}</Tooltip>
          </CircleMarker>
        ))}
        {mode === 'departmentControl' && layers.controllers && data && <ControllersLayer controllers={data.controllers} />}
        {mode === 'currentRegion' && layers.routes && <RoutesLayer routes={routes} />}
      </BaseMap>
      <Fab size="small" color="default" aria-label="layers" sx={{ position: 'absolute', right: 12, top: 12, zIndex: 1000 }}
        onClick={() => setParams((p) => { const next = new URLSearchParams(p); if (showLayers) next.delete(LAYERS_PARAM); else next.set(LAYERS_PARAM, 'true'); return next; })}>
        <LayersIcon />
      </Fab>
      {showLayers && (
        <Paper elevation={4} sx={{ position: 'absolute', right: 12, top: 60, zIndex: 1000, p: 1.5 }} data-testid="bc-layers">
          <Stack>
            {MODE_LAYERS[mode].map((layer) => (
              <FormControlLabel key={layer} label={t(`mobile.bc.layers.${layer}`)} control={<Checkbox size="small" checked={layers[layer]} onChange={(e) => toggle(layer, e.target.checked)} />} />
            ))}
          </Stack>
        </Paper>
      )}
      {region !== null && (
        <Box sx={{ position: 'absolute', left: 8, right: 8, bottom: 8, zIndex: 1000 }}>
          <RegionDetailsCard key={region} regionId={region} onClose={() => setRegion(null)} />
        </Box>
      )}
    </Box>
  );
}

export function DepartmentControlMap() {
  return <BcMapScreen mode="departmentControl" />;
}

export function CurrentRegionMap() {
  return <BcMapScreen mode="currentRegion" />;
}
