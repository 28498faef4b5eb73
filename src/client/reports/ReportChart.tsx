import { useState } from 'react';
import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Line,
  LineChart,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useTranslate } from 'react-admin';
import { formatNumber, formatPercent } from '../../shared/format';
import { cellText } from '../../shared/reports/cells';
import type { ReportChart as ChartSpec, ReportDeclaration } from '../../shared/reports/types';

const PALETTE = ['#003a72', '#e6550d', '#31a354', '#756bb1', '#d62728', '#17becf', '#bcbd22', '#8c564b', '#e377c2', '#7f7f7f'];

type Row = Record<string, unknown>;

/** The x of the pie's slice summing what is beyond its `top`. */
export const OTHER = '\u0000other';

/** Points of one label (two stops of one name) told apart by their key, as the server labels stops (mgt.stop_label). */
function distinctLabels(points: Row[]): void {
  const uses = new Map<unknown, number>();
  for (const point of points) uses.set(point.label, (uses.get(point.label) ?? 0) + 1);
  for (const point of points) if ((uses.get(point.label) ?? 0) > 1) point.label = `${String(point.label)} (${String(point.x)})`;
}

/**
 * Long rows (x, series, value) as one point per x with a number per series, x in ascending order; with `top`,
 * the x values of the largest totals, largest first (a pie sums the rest into an OTHER slice). With `label`,
 * each point also carries its row's label (the x is then a key, such as a stop id).
 */
export function pivot(rows: readonly Row[], chart: ChartSpec): { points: Row[]; series: string[] } {
  const series = chart.stackBy ? [...new Set(rows.map((row) => String(row[chart.stackBy!])))].sort() : [chart.value];
  const byX = new Map<string, Row>();
  for (const row of rows) {
    const x = String(row[chart.x]);
    const point = byX.get(x) ?? (chart.label ? { x, label: row[chart.label] } : { x });
    const name = chart.stackBy ? String(row[chart.stackBy]) : chart.value;
    point[name] = Number(point[name] ?? 0) + Number(row[chart.value] ?? 0);
    byX.set(x, point);
  }
  if (chart.label) distinctLabels([...byX.values()]);
  // digit runs compared as numbers: hours 5, 6 … 23, not 10 … 23, 5 (dates in ISO order either way)
  const points = [...byX.keys()].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).map((x) => byX.get(x)!);
  if (!chart.top) return { points, series };
  const total = (point: Row) => series.reduce((sum, name) => sum + Number(point[name] ?? 0), 0);
  const ranked = points.filter((point) => total(point) > 0).sort((a, b) => total(b) - total(a));
  const top = ranked.slice(0, chart.top);
  const rest = ranked.slice(chart.top);
  if (chart.kind === 'pie' && rest.length) {
    const other: Row = { x: OTHER };
    for (const name of series) other[name] = rest.reduce((sum, point) => sum + Number(point[name] ?? 0), 0);
    top.push(other);
  }
  return { points: top, series };
}

/** A slice below this share of the pie is named by the legend only: small slices' labels would overlap. */
export const PIE_LABEL_MIN_SHARE = 0.04;
/** Axis names longer than this are shortened (the tooltip and the table under the chart have them whole). */
const AXIS_LABEL_MAX = 22;
/** Up to this many points every x is named; beyond, recharts names as many as fit. */
const EVERY_TICK_MAX = 40;

/**
 * How the x axis names its points: every one of them (interval 0) while there are few enough, slanted when
 * the names would not fit side by side, with the axis as tall as the longest slanted name needs.
 */
export function xAxisLayout(labels: readonly string[], width: number): { interval: number | 'preserveEnd'; angle: number; height: number } {
  const longest = Math.min(AXIS_LABEL_MAX, Math.max(0, ...labels.map((text) => text.length)));
  const charWidth = 7;
  const fits = labels.length * (longest * charWidth + 8) <= width;
  if (labels.length > EVERY_TICK_MAX) return { interval: 'preserveEnd', angle: 0, height: 30 };
  return fits ? { interval: 0, angle: 0, height: 30 } : { interval: 0, angle: -40, height: Math.round(16 + longest * charWidth * 0.65) };
}

const shortened = (text: string) => (text.length > AXIS_LABEL_MAX ? `${text.slice(0, AXIS_LABEL_MAX - 1)}…` : text);

/**
 * A declared chart (recharts, lazy-loaded with this file) and the table of its numbers under it: the x
 * values as rows, one column per series and their total.
 */
export default function ReportChart({ report, chart, rows }: { report: ReportDeclaration; chart: ChartSpec; rows: readonly Row[] }) {
  const translate = useTranslate();
  const xName = chart.label ?? chart.x;
  const xColumn = report.columns.find((c) => c.name === xName)!;
  const { points, series } = pivot(rows, chart);
  const labels = new Map(chart.label ? points.map((point) => [point.x, point.label]) : []);
  // an enum's values read as the table shows them
  const catalogue = (key: string) => translate(key, { _: '' });
  const label = (x: unknown) =>
    x === OTHER ? translate('reports.other') : cellText(xColumn, chart.label ? labels.get(x) : x, undefined, catalogue);
  const Chart = chart.kind === 'line' ? LineChart : BarChart;
  // a series is a value of the stacking column, or (unstacked) the plotted column, named by its label
  const stackColumn = report.columns.find((c) => c.name === chart.stackBy);
  // stacked bars add up to their total; lines by a column (shares, say) are series side by side
  const stacked = chart.stackBy !== undefined && chart.kind === 'bar';
  const seriesName = (name: string) =>
    stackColumn ? cellText(stackColumn, name, undefined, catalogue) : translate(`${report.labels}.${name}`);
  const [width, setWidth] = useState(800);
  const axis = xAxisLayout(
    points.map((point) => label(point.x)),
    width,
  );
  return (
    <Box sx={{ my: 2 }} data-testid="report-chart">
      <Typography variant="subtitle1">{translate(chart.title)}</Typography>
      <Box sx={{ height: 320 }}>
        <ResponsiveContainer width="100%" height="100%" onResize={(w) => setWidth(w)}>
          {chart.kind === 'pie' ? (
            <PieChart>
              <Pie
                data={points}
                dataKey={chart.value}
                nameKey="x"
                isAnimationActive={false}
                outerRadius="75%"
                label={(entry: { name?: unknown; percent?: number }) =>
                  (entry.percent ?? 0) >= PIE_LABEL_MIN_SHARE ? `${label(entry.name)} ${formatPercent(entry.percent ?? 0)}` : null
                }
                labelLine={(props: { percent?: number; points?: { x: number; y: number }[] }) =>
                  (props.percent ?? 0) >= PIE_LABEL_MIN_SHARE && props.points ? (
                    <polyline points={props.points.map((p) => `${p.x},${p.y}`).join(' ')} stroke="#999" fill="none" />
                  ) : (
                    <g />
                  )
                }
              >
                {points.map((point, i) => (
                  <Cell key={String(point.x)} fill={PALETTE[i % PALETTE.length]} />
                ))}
              </Pie>
              <Tooltip formatter={(v, name) => [formatNumber(Number(v)), label(name)]} />
              <Legend layout="vertical" align="right" verticalAlign="middle" formatter={(name) => label(name)} />
            </PieChart>
          ) : (
            <Chart data={points}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis
                dataKey="x"
                tickFormatter={(x) => shortened(label(x))}
                interval={axis.interval}
                angle={axis.angle}
                height={axis.height}
                textAnchor={axis.angle ? 'end' : 'middle'}
                tick={{ fontSize: 12 }}
              />
              <YAxis tickFormatter={(v: number) => formatNumber(v)} />
              <Tooltip labelFormatter={label} formatter={(v) => formatNumber(Number(v))} />
              <Legend />
              {series.map((name, i) =>
                chart.kind === 'line' ? (
                  <Line key={name} dataKey={name} name={seriesName(name)} stroke={PALETTE[i % PALETTE.length]} isAnimationActive={false} />
                ) : (
                  <Bar
                    key={name}
                    dataKey={name}
                    name={seriesName(name)}
                    stackId={chart.stackBy ? 'stack' : undefined}
                    fill={PALETTE[i % PALETTE.length]}
                    isAnimationActive={false}
                  />
                ),
              )}
            </Chart>
          )}
        </ResponsiveContainer>
      </Box>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" data-testid="report-chart-table">
          <TableHead>
            <TableRow>
              <TableCell>{translate(`${report.labels}.${xName}`)}</TableCell>
              {series.map((name) => (
                <TableCell key={name} align="right">
                  {seriesName(name)}
                </TableCell>
              ))}
              {stacked && <TableCell align="right">{translate('reports.totals')}</TableCell>}
            </TableRow>
          </TableHead>
          <TableBody>
            {points.map((point) => (
              <TableRow key={String(point.x)}>
                <TableCell>{label(point.x)}</TableCell>
                {series.map((name) => (
                  <TableCell key={name} align="right">
                    {formatNumber(Number(point[name] ?? 0))}
                  </TableCell>
                ))}
                {stacked && (
                  <TableCell align="right">{formatNumber(series.reduce((sum, name) => sum + Number(point[name] ?? 0), 0))}</TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </Box>
  );
}
