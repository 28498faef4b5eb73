import { useMemo } from 'react';
import { Box, Tooltip, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatNumber } from '../../shared/format';
import { periodText } from '../../shared/reports/cells';
import { PDM_HEATMAP } from '../../shared/reports/pdm';
import { BaseMap } from '../map/base/BaseMap';
import { HeatLayer } from '../map/layers/HeatLayer';
import { ReportPage } from '../reports/ReportScreen';
import { fetchHeat, type HeatData } from './pdmApi';
import { useBuiltFilters, useFilteredLoad } from './useReportFilters';

/** 0..1 → green through yellow to red. */
const heatColour = (x: number) => `hsl(${Math.round(120 * (1 - Math.max(0, Math.min(1, x))))}, 75%, 48%)`;

const CELL_PX = 8;
/** Cells between two labels of a grid of days (a label is wider than a day's cell). */
const DAYS_PER_LABEL = 5;

/**
 * The label of a grid column on the time axis: each midnight of an hourly grid (and its first column when a
 * midnight is far enough not to overlap it), every few days of a daily one; none between.
 */
function axisLabel(period: string, index: number, daily: boolean): string | undefined {
  const day = periodText(period.slice(0, 10)).slice(0, 5);
  if (daily) return index % DAYS_PER_LABEL === 0 ? day : undefined;
  const clock = period.slice(11, 16);
  if (clock === '00:00') return day;
  return index === 0 && clock <= '14:00' ? `${day} ${clock}` : undefined;
}

/** The grid's time axis: a tick and a date under the columns it labels. */
function TimeAxis({ periods, daily }: { periods: string[]; daily: boolean }) {
  return (
    <>
      <Box />
      {periods.map((period, i) => {
        const label = axisLabel(period, i, daily);
        return (
          <Box key={period} sx={{ position: 'relative', height: 18, borderLeft: label ? '1px solid #9e9e9e' : 'none' }}>
            {label && (
              <Typography component="span" variant="caption" data-testid="pdm-heat-tick"
                sx={{ position: 'absolute', left: 2, top: 0, lineHeight: '18px', whiteSpace: 'nowrap', color: 'text.secondary' }}>
                {label}
              </Typography>
            )}
          </Box>
        );
      })}
    </>
  );
}

/** The vehicle × time grid: a row per vehicle, a cell per hour or day, coloured by the chosen metric, the time axis below. */
function HeatGrid({ data, metric, daily }: { data: HeatData; metric: string; daily: boolean }) {
  const { vehicles, periods, cells, max } = useMemo(() => {
    const vehicles = [...new Map(data.cells.map((c) => [c.vehicle_id, c.depot_number])).entries()];
    const periods = [...new Set(data.cells.map((c) => c.period))].sort();
    const cells = new Map(data.cells.map((c) => [`${c.vehicle_id}|${c.period}`, c]));
    const max = Math.max(1e-9, ...data.cells.map((c) => (metric === 'fault_rate' ? c.fault_share : c.value ?? 0)));
    return { vehicles, periods, cells, max };
  }, [data, metric]);
  return (
    <Box sx={{ overflowX: 'auto', my: 1, pb: 1 }} data-testid="pdm-heat-grid">
      <Box sx={{ display: 'grid', gridTemplateColumns: `64px repeat(${periods.length}, ${CELL_PX}px)`, gap: '1px', alignItems: 'center', pr: 6 }}>
        {vehicles.map(([vehicle, depot]) => [
          <Typography key={`v${vehicle}`} variant="caption" sx={{ lineHeight: 1 }}>{depot}</Typography>,
          ...periods.map((period) => {
            const cell = cells.get(`${vehicle}|${period}`);
            const value = cell ? (metric === 'fault_rate' ? cell.fault_share : cell.value) : null;
            return (
              <Tooltip key={`${vehicle}|${period}`} title={`${depot} · ${periodText(period)} · ${value === null ? '—' : formatNumber(value, 2)}`}>
                <Box data-cell={value === null ? '' : 'v'} sx={{ width: CELL_PX, height: 10, bgcolor: value === null ? '#eeeeee' : heatColour(value / max) }} />
              </Tooltip>
            );
          }),
        ])}
        <TimeAxis periods={periods} daily={daily} />
      </Box>
    </Box>
  );
}

/** The heat map's special part: the heat layer (leaflet.heat) and the grid, for the filters the report was built with. */
function HeatPart() {
  const translate = useTranslate();
  const filters = useBuiltFilters(PDM_HEATMAP);
  const data = useFilteredLoad(filters, fetchHeat);
  if (!data) return null;
  return (
    <Box>
      <Typography variant="subtitle1">{translate('pdm.heat.layer')}</Typography>
      <Box sx={{ position: 'relative', height: 380, my: 1 }}>
        <BaseMap testId="pdm-heat-map"><HeatLayer points={data.points} /></BaseMap>
      </Box>
      {!data.points.length && <Typography variant="body2" color="text.secondary">{translate('pdm.heat.noPlaces')}</Typography>}
      <Typography variant="subtitle1">{translate('pdm.heat.grid')}</Typography>
      <HeatGrid data={data} metric={String(filters?.metric ?? 'value')} daily={filters?.step === 'day'} />
    </Box>
  );
}

/** /pdm/heatmap (code 37): the declared report with its map and grid above the table. */
export default function HeatmapScreen() {
  return <ReportPage report={PDM_HEATMAP}><HeatPart /></ReportPage>;
}
