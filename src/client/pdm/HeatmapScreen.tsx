import { useMemo } from 'react';
import { Box, Tooltip, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatNumber } from '../../shared/format';
import { periodText } from '../../shared/reports/cells';
import { PDM_HEATMAP } from '../../shared/reports/pdm';
import { periodAxisLabels, timeGridHeader } from '../components/TimeGridHeader';
import { BaseMap } from '../../web/map/base/BaseMap';
import { HeatLayer } from '../map/layers/HeatLayer';
import { ReportPage } from '../reports/ReportScreen';
import { fetchHeat, type HeatData } from './pdmApi';
import { useBuiltFilters, useFilteredLoad } from './useReportFilters';

/** 0..1 → green through yellow to red. */
const heatColour = (x: number) => `hsl(${Math.round(120 * (1 - Math.max(0, Math.min(1, x))))}, 75%, 48%)`;

const CELL_PX = 8;
/** The vehicle × time grid: a row per vehicle, a cell per hour or day, coloured by the chosen metric, the time axis above. */
function HeatGrid({ data, metric }: { data: HeatData; metric: string }) {
  const { vehicles, periods, cells, max } = useMemo(() => {
    const vehicles = [...new Map(data.cells.map((c) => [c.vehicle_id, c.depot_number])).entries()];
    const periods = [...new Set(data.cells.map((c) => c.period))].sort();
    const cells = new Map(data.cells.map((c) => [`${c.vehicle_id}|${c.period}`, c]));
    const max = Math.max(1e-9, ...data.cells.map((c) => (metric === 'fault_rate' ? c.fault_share : (c.value ?? 0))));
    return { vehicles, periods, cells, max };
  }, [data, metric]);
  return (
    <Box sx={{ overflowX: 'auto', my: 1, pb: 1 }} data-testid="pdm-heat-grid">
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: `64px repeat(${periods.length}, ${CELL_PX}px)`,
          gap: '1px',
          alignItems: 'center',
          pr: 6,
        }}
      >
        {timeGridHeader(periodAxisLabels(periods), 'pdm-heat-tick')}
        {vehicles.map(([vehicle, depot]) => [
          <Typography key={`v${vehicle}`} variant="caption" sx={{ lineHeight: 1 }}>
            {depot}
          </Typography>,
          ...periods.map((period) => {
            const cell = cells.get(`${vehicle}|${period}`);
            const value = cell ? (metric === 'fault_rate' ? cell.fault_share : cell.value) : null;
            return (
              <Tooltip
                key={`${vehicle}|${period}`}
                title={`${depot} · ${periodText(period)} · ${value === null ? '—' : formatNumber(value, 2)}`}
              >
                <Box
                  data-cell={value === null ? '' : 'v'}
                  sx={{ width: CELL_PX, height: 10, bgcolor: value === null ? '#eeeeee' : heatColour(value / max) }}
                />
              </Tooltip>
            );
          }),
        ])}
      </Box>
    </Box>
  );
}

/** The heat map's special part: the heat layer (leaflet.heat) and the grid, for the filters the report was built with. */
function HeatPart() {
  const translate = useTranslate();
  const filters = useBuiltFilters(PDM_HEATMAP);
  const data = useFilteredLoad(['pdm', 'heat'], filters, fetchHeat);
  if (!data) return null;
  return (
    <Box>
      <Typography variant="subtitle1">{translate('pdm.heat.layer')}</Typography>
      <Box sx={{ position: 'relative', height: 380, my: 1 }}>
        <BaseMap testId="pdm-heat-map">
          <HeatLayer points={data.points} />
        </BaseMap>
      </Box>
      {!data.points.length && (
        <Typography variant="body2" color="text.secondary">
          {translate('pdm.heat.noPlaces')}
        </Typography>
      )}
      <Typography variant="subtitle1">{translate('pdm.heat.grid')}</Typography>
      <HeatGrid data={data} metric={String(filters?.metric ?? 'value')} />
    </Box>
  );
}

/** /pdm/heatmap (code 37): the declared report with its map and grid above the table. */
export default function HeatmapScreen() {
  return (
    <ReportPage report={PDM_HEATMAP}>
      <HeatPart />
    </ReportPage>
  );
}
