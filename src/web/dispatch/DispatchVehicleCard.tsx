import { Box, Chip, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { VehicleCard } from '../../shared/dispatch/api';
import { formatClock } from '../../shared/format';
import { useT } from '../i18n/translate';
import { useVehicleCard } from './dispatchApi';
import { ADHERENCE_COLORS, formatDeviation, formatDuration } from './dispatchFormat';
import { DispatchError } from './DispatchError';

/** The vehicle's adherence and deviation from its timetable as a coloured chip (+4:05 late, −0:40 early). */
function AdherenceChip({ card }: { card: VehicleCard }) {
  const t = useT();
  return (
    <Chip
      size="small"
      label={`${t(`dispatch.adherence.${card.adherence}`)} ${formatDeviation(card.deviation)}`}
      sx={{ bgcolor: ADHERENCE_COLORS[card.adherence], color: '#fff', fontWeight: 600 }}
      data-testid="vehicle-dispatch-adherence"
    />
  );
}

/** The dispatch part of a vehicle's card: its run, deviation, headway and next stops with predicted times. */
export function VehicleDispatchRows({ card, stops = 6 }: { card: VehicleCard; stops?: number }) {
  const t = useT();
  if (!card.routeId)
    return (
      <Typography variant="body2" color="text.secondary" data-testid="vehicle-dispatch-norun">
        {t('dispatch.card.noRun')}
      </Typography>
    );
  return (
    <Box data-testid="vehicle-dispatch" data-adherence={card.adherence} data-deviation={card.deviation ?? ''}>
      <Typography variant="body2">
        {t('dispatch.card.route')}: <b>{card.routeName}</b> ·{' '}
        {t('dispatch.card.run', { graph: card.graph ?? '', smena: card.smena ?? '', race: card.raceNum ?? '' })}
      </Typography>
      {card.driver && (
        <Typography variant="body2">
          {t('dispatch.card.driver')}: {card.driver}
        </Typography>
      )}
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', my: 0.5, flexWrap: 'wrap' }}>
        <AdherenceChip card={card} />
        {card.headway !== null && (
          <Typography variant="body2">
            {t('dispatch.card.headway')}: {formatDuration(card.headway)}
            {card.scheduledHeadway !== null &&
              ` (${t('dispatch.card.scheduledHeadway', { value: formatDuration(card.scheduledHeadway) })})`}
          </Typography>
        )}
      </Stack>
      {card.nextStops.length > 0 && (
        <Table size="small" sx={{ '& td, & th': { px: 0.5, py: 0.25, fontSize: 12 } }} data-testid="vehicle-dispatch-stops">
          <TableHead>
            <TableRow>
              <TableCell>{t('dispatch.card.stop')}</TableCell>
              <TableCell>{t('dispatch.card.scheduled')}</TableCell>
              <TableCell>{t('dispatch.card.predicted')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {card.nextStops.slice(0, stops).map((s, i) => (
              <TableRow key={`${s.stopId}-${s.raceNum}-${i}`}>
                <TableCell>{s.name ?? s.stopId}</TableCell>
                <TableCell>{formatClock(s.scheduled, { seconds: false })}</TableCell>
                <TableCell>
                  <b>{formatClock(s.predicted, { seconds: false })}</b>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}

/** A vehicle's dispatch card read live (the line diagram's side panel, the map's vehicle popup). */
export function DispatchVehicleCard({ vehicleId, stops }: { vehicleId: number; stops?: number }) {
  const card = useVehicleCard(vehicleId);
  if (card.error) return <DispatchError error={card.error} />;
  if (!card.data) return null;
  return <VehicleDispatchRows card={card.data} stops={stops} />;
}

/** Only a vehicle's deviation from its timetable, read live (the field app's vehicle card); nothing off a run. */
export function DispatchDeviation({ vehicleId }: { vehicleId: number }) {
  const t = useT();
  const card = useVehicleCard(vehicleId);
  if (card.error) return <DispatchError error={card.error} />;
  if (!card.data?.routeId) return null;
  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{ alignItems: 'center', mt: 0.5 }}
      data-testid="vehicle-dispatch"
      data-adherence={card.data.adherence}
      data-deviation={card.data.deviation ?? ''}
    >
      <Typography variant="body2">{t('dispatch.card.deviation')}:</Typography>
      <AdherenceChip card={card.data} />
    </Stack>
  );
}
