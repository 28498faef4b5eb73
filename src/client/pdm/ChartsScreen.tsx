import { Box, Typography } from '@mui/material';
import { CartesianGrid, Legend, Line, LineChart, ReferenceArea, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useTranslate } from 'react-admin';
import { formatDateTime, formatNumber } from '../../shared/format';
import { PDM_CHARTS } from '../../shared/reports/pdm';
import { ReportPage } from '../reports/ReportScreen';
import { fetchChart } from './pdmApi';
import { useBuiltFilters, useFilteredLoad } from './useReportFilters';

const PALETTE = ['#003a72', '#e6550d', '#31a354', '#756bb1', '#d62728', '#17becf', '#bcbd22', '#8c564b', '#e377c2', '#7f7f7f'];

/**
 * The charts' special part: one line per vehicle × sensor over time, a gap where the sensor had no data
 * (never drawn as zero), the normal range of a single series shaded. Each unit has its own scale; the first
 * two units' axes are drawn (left, right), the others' lines are read by the tooltip and the table below.
 */
function SensorChart() {
  const translate = useTranslate();
  const filters = useBuiltFilters(PDM_CHARTS);
  const data = useFilteredLoad(['pdm', 'chart'], filters, fetchChart);
  if (!data) return null;
  const units = [...new Set(data.series.map((s) => s.unit ?? ''))];
  const axisOf = (unit: string | null) => `unit${units.indexOf(unit ?? '')}`;
  const only = data.series.length === 1 ? data.series[0] : undefined;
  return (
    <Box sx={{ my: 2 }} data-testid="pdm-chart" data-series={data.series.length}>
      <Box sx={{ height: 360 }}>
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data.points}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis
              dataKey="t"
              type="number"
              domain={['dataMin', 'dataMax']}
              scale="time"
              tickFormatter={(t: number) => formatDateTime(new Date(t)).slice(0, 16)}
            />
            {/* a scale per unit over its readings' range (a door counter's millions would flatten a temperature, a
                zero floor a voltage's swings); the first two are drawn, left and right */}
            {units.map((unit, i) => (
              <YAxis
                key={unit}
                yAxisId={`unit${i}`}
                hide={i > 1}
                domain={['auto', 'auto']}
                orientation={i === 1 ? 'right' : 'left'}
                tickFormatter={(v: number) => formatNumber(v)}
                label={{ value: unit, angle: i === 1 ? 90 : -90, position: i === 1 ? 'insideRight' : 'insideLeft' }}
              />
            ))}
            <Tooltip
              labelFormatter={(t) => formatDateTime(new Date(Number(t)))}
              formatter={(v) => (v === null ? '—' : formatNumber(Number(v), 2))}
            />
            <Legend />
            {only && (only.normal_min !== null || only.normal_max !== null) && (
              <ReferenceArea
                yAxisId="unit0"
                y1={only.normal_min ?? undefined}
                y2={only.normal_max ?? undefined}
                fill="#2e7d32"
                fillOpacity={0.08}
                label={translate('pdm.chart.normal')}
              />
            )}
            {data.series.map((s, i) => (
              <Line
                key={s.key}
                yAxisId={axisOf(s.unit)}
                dataKey={s.key}
                name={`${s.label}${s.unit ? `, ${s.unit}` : ''}`}
                stroke={PALETTE[i % PALETTE.length]}
                dot={false}
                connectNulls={false}
                isAnimationActive={false}
                type="linear"
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </Box>
      <Typography variant="caption" color="text.secondary">
        {translate('pdm.chart.gap')}
      </Typography>
    </Box>
  );
}

/** /pdm/charts (code 40): several sensors of several vehicles over a period; the numbers in the table below. */
export default function ChartsScreen() {
  const translate = useTranslate();
  const filters = useBuiltFilters(PDM_CHARTS);
  return (
    <ReportPage report={PDM_CHARTS}>
      {filters && !filters.vehicle && (
        <Typography color="text.secondary" data-testid="pdm-chart-default">
          {translate('pdm.chart.pickVehicles')}
        </Typography>
      )}
      <SensorChart />
    </ReportPage>
  );
}
