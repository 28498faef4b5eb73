import { Box, IconButton, Paper, Stack, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { Title } from 'react-admin';
import { useSearchParams } from 'react-router';
import { useT } from '../../web/i18n/translate';
import { useOptions, useRouteLine, useVehicleCard } from '../../web/dispatch/dispatchApi';
import { idsFrom } from '../../web/dispatch/dispatchFormat';
import { DispatchError } from '../../web/dispatch/DispatchError';
import { DispatchIdSelect } from './DispatchIdSelect';
import { DispatchVehicleCard } from '../../web/dispatch/DispatchVehicleCard';
import { LineDiagram } from './LineDiagram';
import { VehicleCardActions } from './VehicleCardActions';

/** One route's diagram, read again every few seconds. */
function RouteLinePanel({ routeId, selected, onVehicle }: { routeId: number; selected: number | null; onVehicle: (id: number) => void }) {
  const t = useT();
  const line = useRouteLine(routeId);
  return (
    <Paper variant="outlined" sx={{ p: 1.5, mb: 1.5 }} data-testid="line-route" data-route-id={routeId}>
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
        {line.data?.routeName ?? routeId}
        {line.data && (
          <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 1 }}>
            {t('dispatch.lines.vehicles', { count: line.data.vehicles.length })}
          </Typography>
        )}
      </Typography>
      <DispatchError error={line.error} />
      {line.data && <LineDiagram line={line.data} selected={selected} onVehicle={onVehicle} />}
    </Paper>
  );
}

/**
 * /dispatch/lines «Линейный график» (code 44): the chosen routes (?routes=) drawn as lines of their stops per
 * direction with the vehicles on them coloured by adherence; a vehicle's card (?vehicle=) beside them.
 */
export default function LinesScreen() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const routes = idsFrom(params.get('routes'));
  const vehicle = idsFrom(params.get('vehicle'))[0] ?? null;
  const options = useOptions();
  const card = useVehicleCard(vehicle);
  const set = (name: string, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );

  return (
    <Box sx={{ p: 2 }} data-testid="dispatch-lines">
      <Title title={t('menu.dispatch.lines')} />
      <DispatchIdSelect
        label={t('dispatch.filters.routes')}
        options={options.data?.routes ?? []}
        value={routes}
        onChange={(ids) => set('routes', ids.join(','))}
        testId="lines-routes"
      />
      <DispatchError error={options.error} />
      <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2} sx={{ mt: 2, alignItems: 'flex-start' }}>
        <Box sx={{ flex: 1, minWidth: 0, width: '100%' }}>
          {routes.length === 0 && <Typography color="text.secondary">{t('dispatch.lines.choose')}</Typography>}
          {routes.map((id) => (
            <RouteLinePanel key={id} routeId={id} selected={vehicle} onVehicle={(v) => set('vehicle', String(v))} />
          ))}
        </Box>
        {vehicle !== null && (
          <Paper variant="outlined" sx={{ p: 1.5, width: { xs: '100%', lg: 360 }, flexShrink: 0 }} data-testid="line-vehicle-card">
            <Stack direction="row" sx={{ alignItems: 'center' }}>
              <Typography variant="subtitle1" sx={{ flex: 1, fontWeight: 600 }}>
                {t('dispatch.card.title', { number: card.data?.depotNumber ?? vehicle })}
              </Typography>
              <IconButton size="small" aria-label={t('dispatch.card.close')} onClick={() => set('vehicle', null)}>
                <CloseIcon fontSize="small" />
              </IconButton>
            </Stack>
            <DispatchVehicleCard vehicleId={vehicle} stops={10} />
            <VehicleCardActions vehicleId={vehicle} />
          </Paper>
        )}
      </Stack>
    </Box>
  );
}
