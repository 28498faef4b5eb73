import { useEffect, useState } from 'react';
import { Box, Stack, Typography } from '@mui/material';
import { formatClock } from '../../shared/format';
import { useT } from '../i18n/translate';
import { useStopArrivals } from './dispatchApi';
import { formatDeviation } from './dispatchFormat';
import { DispatchError } from './DispatchError';

const TICK_MS = 10_000;

/**
 * A stop's predicted arrivals for the next hour per route, counting down (the map's stop card; the field map's
 * arrivals near the user, which name the stop themselves: `titled` false).
 */
export function StopArrivalsList({ stopId, titled = true }: { stopId: number; titled?: boolean }) {
  const t = useT();
  const arrivals = useStopArrivals(stopId);
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  if (arrivals.error) return <DispatchError error={arrivals.error} />;
  if (!arrivals.data) return null;
  const routes = arrivals.data.routes;
  return (
    <Box sx={{ mt: titled ? 1 : 0 }} data-testid="stop-arrivals">
      {titled && (
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {t('dispatch.arrivals.title')}
        </Typography>
      )}
      {routes.length === 0 && (
        <Typography variant="body2" color="text.secondary" data-testid="stop-arrivals-none">
          {t('dispatch.arrivals.none')}
        </Typography>
      )}
      {routes.map((route) => (
        <Stack
          key={`${route.routeId}|${route.direction}`}
          direction="row"
          spacing={1}
          sx={{ alignItems: 'baseline', flexWrap: 'wrap' }}
          data-testid="stop-arrivals-route"
          data-route-id={route.routeId}
        >
          <Typography variant="body2" sx={{ fontWeight: 600, minWidth: 36 }}>
            {route.routeName ?? route.routeId}
          </Typography>
          {route.arrivals.slice(0, 4).map((a) => {
            const minutes = Math.max(0, Math.round((Date.parse(a.predicted) - now) / 60_000));
            return (
              <Typography
                key={`${a.vehicleId}|${a.raceNum}`}
                variant="body2"
                title={`${a.depotNumber ?? a.vehicleId} · ${formatClock(a.predicted, { seconds: false })} ${formatDeviation(a.deviation)}`}
                data-testid="stop-arrival"
                data-vehicle-id={a.vehicleId}
                data-minutes={minutes}
              >
                {minutes === 0 ? t('dispatch.arrivals.now') : t('dispatch.arrivals.inMinutes', { minutes })}
              </Typography>
            );
          })}
        </Stack>
      ))}
    </Box>
  );
}
