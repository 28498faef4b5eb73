import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseReportFilters } from '../../shared/reports/filters';
import { PDM_CHARTS, PDM_HEATMAP, PDM_NODE_JOURNAL } from '../../shared/reports/pdm';
import { reportQuerySchema, clientOffset } from '../reports/reportsRoutes';
import { reportQuery } from '../reports/reportQuery';
import type { ReportDeclaration } from '../../shared/reports/types';
import { fail } from '../http/errors';
import { PDM_API } from '../../shared/pdm/model';
import { chartSql, heatPointsSql, heatSql, timelineSql } from './pdmQueries';

function filtersOf(report: ReportDeclaration, request: FastifyRequest) {
  const parsed = parseReportFilters(report, request.query as Record<string, unknown>);
  if (!parsed.ok) throw fail(400, parsed.code, parsed.field);
  return parsed.values;
}

/** A report's query string without paging and sorting: the special parts take exactly the report's filters. */
const filtersSchema = (report: ReportDeclaration) => {
  const schema = reportQuerySchema(report, 'list') as { properties: Record<string, unknown> };
  const { sortField: _s, sortOrder: _o, skipCount: _k, recordCount: _r, ...properties } = schema.properties;
  return { ...schema, properties };
};

interface ChartRow {
  series: string;
  vehicle_id: number;
  node_id: number;
  unit: string | null;
  avg: number | null;
  min: number | null;
  max: number | null;
  at: Date;
}

const STEP_MS: Readonly<Record<string, number>> = { raw: 0, minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/**
 * The special parts of the PDM report screens, each with the permission of its report: the charts' series
 * with their gaps (no data is a gap, never a zero), the heat layer's points and grid, one vehicle's state
 * timeline per node.
 */
export default async function screenRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    `${PDM_API}/chart`,
    {
      config: { access: { path: PDM_CHARTS.path, action: 'read' }, module: 'pdm' },
      schema: {
        tags: ['pdm'],
        summary: 'Ряды графика (фильтры отчёта /pdm/charts): точки по времени, null — разрыв (нет данных), нормальный диапазон узла',
        querystring: filtersSchema(PDM_CHARTS),
      },
    },
    async (request) => {
      const filters = filtersOf(PDM_CHARTS, request);
      const sql = chartSql(filters, { offsetMinutes: clientOffset(request) });
      const rows = await reportQuery<ChartRow>(app, `select * from (${sql.text}) r order by r.at limit 200001`, sql.params);
      if (rows.length > 200_000) throw fail(400, 'report_too_large');
      const series = new Map<
        string,
        {
          key: string;
          label: string;
          vehicle_id: number;
          node_id: number;
          unit: string | null;
          normal_min: number | null;
          normal_max: number | null;
          silence_s: number;
        }
      >();
      const ranges = new Map(
        (
          await app.db.query<{ id: number; normal_min: number | null; normal_max: number | null; silence_s: number }>(
            'select id, normal_min, normal_max, silence_s from pdm.node where id = any($1::int[])',
            [[...new Set(rows.map((r) => r.node_id))]],
          )
        ).map((n) => [n.id, n]),
      );
      const byTime = new Map<number, Record<string, number | null>>();
      const lastAt = new Map<string, number>();
      for (const row of rows) {
        const key = `${row.vehicle_id}:${row.node_id}`;
        const node = ranges.get(row.node_id);
        if (!series.has(key))
          series.set(key, {
            key,
            label: row.series,
            vehicle_id: row.vehicle_id,
            node_id: row.node_id,
            unit: row.unit,
            normal_min: node?.normal_min ?? null,
            normal_max: node?.normal_max ?? null,
            silence_s: node?.silence_s ?? 300,
          });
        const t = new Date(row.at).getTime();
        // A gap longer than the node's silence time-out (or two steps) is drawn as a gap: a null point inside it.
        const previous = lastAt.get(key);
        const gap = Math.max(2 * STEP_MS[sql.step], series.get(key)!.silence_s * 1000);
        if (previous !== undefined && t - previous > gap) {
          const mid = previous + 1;
          const point = byTime.get(mid) ?? {};
          point[key] = null;
          byTime.set(mid, point);
        }
        lastAt.set(key, t);
        const point = byTime.get(t) ?? {};
        point[key] = row.avg;
        byTime.set(t, point);
      }
      const points = [...byTime.entries()].sort((a, b) => a[0] - b[0]).map(([t, values]) => ({ t, ...values }));
      return { step: sql.step, series: [...series.values()], points };
    },
  );

  app.get(
    `${PDM_API}/heat`,
    {
      config: { access: { path: PDM_HEATMAP.path, action: 'read' }, module: 'pdm' },
      schema: {
        tags: ['pdm'],
        summary:
          'Тепловой слой (точки: широта, долгота, вес) и сетка ТС × время (до 60 ТС с наибольшей долей неисправностей) по фильтрам /pdm/heatmap',
        querystring: filtersSchema(PDM_HEATMAP),
      },
    },
    async (request) => {
      const filters = filtersOf(PDM_HEATMAP, request);
      const points = heatPointsSql(filters);
      const grid = heatSql(filters, { offsetMinutes: clientOffset(request) });
      const [placeRows, cells] = await Promise.all([
        reportQuery<{ lat: number; lon: number; weight: number | null }>(app, points.text, points.params),
        reportQuery<{ vehicle_id: number; depot_number: number; period: string; value: number | null; fault_share: number }>(
          app,
          `with g as (${grid.text}), top as (select vehicle_id from g group by vehicle_id order by max(fault_share) desc, vehicle_id limit 60)
         select g.* from g join top using (vehicle_id) order by g.depot_number, g.period`,
          grid.params,
        ),
      ]);
      const max = Math.max(0, ...placeRows.map((p) => p.weight ?? 0));
      return {
        points: placeRows.filter((p) => p.weight !== null).map((p) => [p.lat, p.lon, max > 0 ? (p.weight ?? 0) / max : 0]),
        max,
        cells,
      };
    },
  );

  app.get<{ Querystring: { vehicle: number; from: string; to: string } }>(
    `${PDM_API}/timeline`,
    {
      config: { access: { path: PDM_NODE_JOURNAL.path, action: 'read' }, module: 'pdm' },
      schema: {
        tags: ['pdm'],
        summary: 'Линия состояний по узлам одного ТС за период (до 93 дней)',
        querystring: {
          type: 'object',
          required: ['vehicle', 'from', 'to'],
          additionalProperties: false,
          properties: {
            vehicle: { type: 'integer', minimum: 1, maximum: 2147483647 },
            from: { type: 'string', maxLength: 40 },
            to: { type: 'string', maxLength: 40 },
          },
        },
      },
    },
    async (request) => {
      const parsed = parseReportFilters(PDM_NODE_JOURNAL, { from: request.query.from, to: request.query.to });
      if (!parsed.ok) throw fail(400, parsed.code, parsed.field);
      const sql = timelineSql(request.query.vehicle, parsed.values.from as string, parsed.values.to as string);
      return { list: await reportQuery(app, sql.text, sql.params) };
    },
  );

  app.get<{ Querystring: { vehicle: string } }>(
    `${PDM_API}/sensors`,
    {
      config: { access: { path: PDM_CHARTS.path, action: 'read' }, module: 'pdm' },
      schema: {
        tags: ['pdm'],
        summary: 'Датчики деревьев выбранных ТС (для выбора рядов графика)',
        querystring: {
          type: 'object',
          required: ['vehicle'],
          additionalProperties: false,
          properties: { vehicle: { type: 'string', maxLength: 400, pattern: '^[0-9,]+$' } },
        },
      },
    },
    async (request) => {
      const ids = request.query.vehicle
        .split(',')
        .filter(Boolean)
        .map(Number)
        .filter((n) => n > 0 && n < 2 ** 31)
        .slice(0, 20);
      const list = await app.db.query(
        `select tv.vehicle_id, v.depot_number, n.id as node_id, n.name, n.sensor_type, n.unit
         from pdm.tree_vehicle tv join mgt.vehicles v on v.id = tv.vehicle_id join pdm.node n on n.tree_id = tv.tree_id and n.channel_kind is not null
        where tv.vehicle_id = any($1::int[]) order by v.depot_number, n.position, n.id`,
        [ids],
      );
      return { list };
    },
  );
}
