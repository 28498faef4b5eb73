import {
  Box,
  Card,
  CardContent,
  List,
  ListItem,
  ListItemText,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useTranslate } from 'react-admin';
import { formatNumber } from '../../shared/format';
import type { SummaryFigures } from '../../shared/passengers/passengers';
import { useApiQuery } from '../../web/providers/queries';
import { fetchSummary } from './passengersApi';
import type { ReportPartProps } from '../reports/reportExtensions';

const FIGURES: { key: keyof SummaryFigures; decimals: number; percent?: boolean }[] = [
  { key: 'passengers', decimals: 0 },
  { key: 'validations', decimals: 0 },
  { key: 'trips', decimals: 0 },
  { key: 'pkm', decimals: 0 },
  { key: 'loadAvg', decimals: 1 },
  { key: 'loadFactorAvg', decimals: 1, percent: true },
  { key: 'loadFactorPeak', decimals: 1, percent: true },
  { key: 'peakPassengers', decimals: 0 },
];

/** The change against the previous period, in per cent (none without a previous figure). */
function change(current: number, previous: number): string {
  if (!previous) return '—';
  const value = (100 * (current - previous)) / previous;
  return `${value > 0 ? '+' : ''}${formatNumber(value, 1)} %`;
}

function Figure({ label, value, previous }: { label: string; value: string; previous: string }) {
  return (
    <Card variant="outlined" sx={{ minWidth: 170, flex: '1 1 170px' }} data-testid="passenger-figure">
      <CardContent sx={{ py: 1, '&:last-child': { pb: 1 } }}>
        <Typography variant="caption" color="text.secondary">
          {label}
        </Typography>
        <Typography variant="h6">{value}</Typography>
        <Typography variant="caption" color="text.secondary">
          {previous}
        </Typography>
      </CardContent>
    </Card>
  );
}

function TopList({ title, rows }: { title: string; rows: { id?: number; name: string; passengers: number }[] }) {
  return (
    <Box sx={{ flex: '1 1 260px' }}>
      <Typography variant="subtitle2">{title}</Typography>
      <List dense>
        {rows.map((row) => (
          <ListItem key={row.id ?? row.name} disableGutters>
            <ListItemText primary={row.name} secondary={formatNumber(row.passengers)} />
          </ListItem>
        ))}
      </List>
    </Box>
  );
}

/**
 * /passengers/analysis's overview above its table: the period's figures against the previous period of the
 * same length, passengers by hour of day (the peak hours of /system/passengers marked), busiest routes and stops.
 */
export default function PassengerSummaryPart({ filters }: ReportPartProps) {
  const translate = useTranslate();
  const key = JSON.stringify(filters);
  const { data: summary } = useApiQuery(['passengers', 'summary', key], (signal) => fetchSummary(JSON.parse(key), signal));
  if (!summary) return null;
  const { current, previous, settings } = summary;
  const peak = (hour: number) =>
    (hour >= settings.morningPeakFrom && hour < settings.morningPeakTo) ||
    (hour >= settings.eveningPeakFrom && hour < settings.eveningPeakTo);
  const hours = summary.byHour.map((h) => ({ ...h, label: `${String(h.hour).padStart(2, '0')}${peak(h.hour) ? ' ★' : ''}` }));
  return (
    <Box sx={{ my: 2 }} data-testid="passenger-summary">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        {FIGURES.map(({ key: name, decimals, percent }) => (
          <Figure
            key={name}
            label={translate(`reports.passengers.summary.${name}`)}
            value={`${formatNumber(current[name], decimals)}${percent ? ' %' : ''}`}
            previous={translate('reports.passengers.summary.previous', {
              value: formatNumber(previous[name], decimals),
              change: change(current[name], previous[name]),
            })}
          />
        ))}
      </Box>
      <Typography variant="subtitle1" sx={{ mt: 2 }}>
        {translate('reports.passengers.summary.byHour')}
      </Typography>
      <Box sx={{ height: 260 }}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={hours}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="label" />
            <YAxis tickFormatter={(v: number) => formatNumber(v)} />
            <Tooltip formatter={(v) => formatNumber(Number(v))} />
            <Legend />
            <Bar dataKey="passengers" name={translate('reports.passengers.summary.current')} fill="#003a72" isAnimationActive={false} />
            <Bar
              dataKey="previous"
              name={translate('reports.passengers.summary.previousPeriod')}
              fill="#9ecae1"
              isAnimationActive={false}
            />
          </BarChart>
        </ResponsiveContainer>
      </Box>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" data-testid="passenger-hours-table">
          <TableHead>
            <TableRow>
              <TableCell>{translate('reports.passengers.summary.hour')}</TableCell>
              {hours.map((h) => (
                <TableCell key={h.hour} align="right">
                  {h.label}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            <TableRow>
              <TableCell>{translate('reports.passengers.summary.current')}</TableCell>
              {hours.map((h) => (
                <TableCell key={h.hour} align="right">
                  {formatNumber(h.passengers)}
                </TableCell>
              ))}
            </TableRow>
            <TableRow>
              <TableCell>{translate('reports.passengers.summary.previousPeriod')}</TableCell>
              {hours.map((h) => (
                <TableCell key={h.hour} align="right">
                  {formatNumber(h.previous)}
                </TableCell>
              ))}
            </TableRow>
          </TableBody>
        </Table>
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mt: 1 }}>
        <TopList title={translate('reports.passengers.summary.topRoutes')} rows={summary.topRoutes} />
        <TopList title={translate('reports.passengers.summary.topStops')} rows={summary.topStops} />
      </Box>
    </Box>
  );
}
