import { useMemo, useState } from 'react';
import { Box, Card, CardContent, Typography } from '@mui/material';
import { CircleMarker, Tooltip } from 'react-leaflet';
import { useTranslate } from 'react-admin';
import { formatNumber } from '../../shared/format';
import { BaseMap } from '../../web/map/base/BaseMap';
import type { ReportPartProps } from '../reports/reportExtensions';

/** The busiest stops drawn (SVG circles stay light up to about this many). */
const MAX_STOPS = 1500;
const MAX_RADIUS = 24;

interface StopRow {
  stop_id: number;
  stop_name: string;
  lat: number;
  lon: number;
  boardings: number;
  alightings: number;
  exchange: number;
  routes: number;
}

/**
 * /passengers/stops's map: every stop of the result as a circle whose area is proportional to its passenger
 * exchange (boardings + alightings); a click chooses the stop and shows its figures beside the map.
 */
export default function StopsMapPart({ rows }: ReportPartProps) {
  const translate = useTranslate();
  const stops = useMemo(
    () =>
      (rows as unknown as StopRow[])
        .filter((row) => row.lat !== null && row.lon !== null)
        .sort((a, b) => b.exchange - a.exchange)
        .slice(0, MAX_STOPS),
    [rows],
  );
  const [chosen, setChosen] = useState<StopRow | null>(null);
  if (!stops.length) return null;
  const max = Math.max(1, stops[0].exchange);
  const centre: [number, number] = [
    stops.reduce((s, r) => s + r.lat, 0) / stops.length,
    stops.reduce((s, r) => s + r.lon, 0) / stops.length,
  ];
  return (
    <Box sx={{ display: 'flex', gap: 2, my: 2, flexWrap: 'wrap' }}>
      <Box sx={{ position: 'relative', height: 420, flex: '3 1 480px' }}>
        <BaseMap center={centre} zoom={11} testId="stops-map">
          {[...stops].reverse().map((stop) => (
            <CircleMarker
              key={stop.stop_id}
              center={[stop.lat, stop.lon]}
              radius={Math.max(3, MAX_RADIUS * Math.sqrt(stop.exchange / max))}
              className="passenger-stop"
              pathOptions={{ color: chosen?.stop_id === stop.stop_id ? '#d62728' : '#003a72', weight: 1, fillOpacity: 0.45 }}
              eventHandlers={{ click: () => setChosen(stop) }}
            >
              <Tooltip>{`${stop.stop_name}: ${formatNumber(stop.exchange)}`}</Tooltip>
            </CircleMarker>
          ))}
        </BaseMap>
      </Box>
      <Card variant="outlined" sx={{ flex: '1 1 220px' }} data-testid="stop-detail">
        <CardContent>
          {chosen ? (
            <>
              <Typography variant="subtitle1" data-testid="stop-detail-name">
                {chosen.stop_name}
              </Typography>
              <Typography variant="body2">{`${translate('reports.passengers.columns.boardings')}: ${formatNumber(chosen.boardings)}`}</Typography>
              <Typography variant="body2">{`${translate('reports.passengers.columns.alightings')}: ${formatNumber(chosen.alightings)}`}</Typography>
              <Typography variant="body2">{`${translate('reports.passengers.columns.exchange')}: ${formatNumber(chosen.exchange)}`}</Typography>
              <Typography variant="body2">{`${translate('reports.passengers.columns.routes')}: ${formatNumber(chosen.routes)}`}</Typography>
            </>
          ) : (
            <Typography variant="body2" color="text.secondary">
              {translate('reports.passengers.chooseStop')}
            </Typography>
          )}
        </CardContent>
      </Card>
    </Box>
  );
}
