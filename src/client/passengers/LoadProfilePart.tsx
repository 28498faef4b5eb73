import { Box, Typography } from '@mui/material';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useTranslate } from 'react-admin';
import { formatNumber } from '../../shared/format';
import type { ReportPartProps } from '../reports/reportExtensions';

interface ProfileRow {
  stop_sequence: number;
  stop_name: string;
  boardings: number;
  alightings: number;
  load_avg: number;
  load_max: number;
  seats: number;
  capacity: number;
  route_name: string;
}

/**
 * /passengers/betweenstops/table's load profile: the average load leaving each stop of the route direction
 * (and the largest), boardings and alightings as bars, against the seats and the total capacity of the
 * vehicles that ran it. Its numbers are the table under it.
 */
export default function LoadProfilePart({ rows }: ReportPartProps) {
  const translate = useTranslate();
  const points = [...(rows as unknown as ProfileRow[])].sort((a, b) => a.stop_sequence - b.stop_sequence);
  if (!points.length) return null;
  const seats = Math.round(points.reduce((s, p) => s + p.seats, 0) / points.length);
  const capacity = Math.round(points.reduce((s, p) => s + p.capacity, 0) / points.length);
  const label = (name: string) => translate(`reports.passengers.columns.${name}`);
  return (
    <Box sx={{ my: 2 }} data-testid="load-profile">
      <Typography variant="subtitle1">{translate('reports.passengers.profileTitle', { route: points[0].route_name ?? '' })}</Typography>
      <Box sx={{ height: 340 }}>
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={points}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="stop_name" interval={0} angle={-35} textAnchor="end" height={90} tick={{ fontSize: 11 }} />
            <YAxis tickFormatter={(v: number) => formatNumber(v)} />
            <Tooltip formatter={(v) => formatNumber(Number(v), 1)} />
            <Legend verticalAlign="top" />
            <Bar dataKey="boardings" name={label('boardings')} fill="#31a354" isAnimationActive={false} />
            <Bar dataKey="alightings" name={label('alightings')} fill="#e6550d" isAnimationActive={false} />
            <Line dataKey="load_avg" name={label('load_avg')} stroke="#003a72" strokeWidth={2} isAnimationActive={false} type="stepAfter" />
            <Line
              dataKey="load_max"
              name={label('load_max')}
              stroke="#756bb1"
              strokeDasharray="4 2"
              isAnimationActive={false}
              type="stepAfter"
            />
            <ReferenceLine
              y={seats}
              ifOverflow="extendDomain"
              stroke="#17becf"
              strokeDasharray="6 3"
              label={`${label('seats')}: ${seats}`}
            />
            <ReferenceLine
              y={capacity}
              ifOverflow="extendDomain"
              stroke="#d62728"
              strokeDasharray="6 3"
              label={`${label('capacity')}: ${capacity}`}
            />
          </ComposedChart>
        </ResponsiveContainer>
      </Box>
    </Box>
  );
}
