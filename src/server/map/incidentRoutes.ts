import type { FastifyInstance } from 'fastify';
import type { IncidentEvent, IncidentType } from '../../shared/map';
import type { Queryable } from '../db/types';
import { fail } from '../http/errors';
import { BBOX_SCHEMA, MAP_READ, parseBbox } from './queryParams';

export const MAX_INCIDENT_PERIOD_DAYS = 7;
export const MAX_INCIDENTS = 5000;
const DAY_MS = 86_400_000;

/** Spec §3: an incident type without a name is labelled 'ISPV event {type}'. */
export const defaultIncidentName = (type: number): string => `ISPV event ${type}`;

/** The incident types handbook as the map and the field app read it; the first row of a code twice listed wins. */
export async function incidentTypesOf(db: Queryable): Promise<IncidentType[]> {
  const rows = await db.query<{ incidentType: number; colour: string; shortName: string | null; name: string | null }>(
    `select distinct on (incident_type) incident_type as "incidentType", incident_color as colour,
            nullif(btrim(incident_short_name), '') as "shortName", nullif(btrim(incident_name), '') as name
       from adas.incident_type order by incident_type, id`,
  );
  return rows.map((row) => ({ ...row, name: row.name ?? defaultIncidentName(row.incidentType) }));
}

export default async function incidentRoutes(app: FastifyInstance): Promise<void> {
  const summary = "Типы инцидентов ИСПВ: код, цвет, краткое и полное название (без названия — 'ISPV event {код}')";
  app.get('/api/v1/map/incident-types', { config: MAP_READ, schema: { tags: ['map'], summary } }, () => incidentTypesOf(app.db));

  app.get<{ Querystring: { from?: string; to?: string; bbox?: string } }>(
    '/api/v1/map/incidents',
    {
      config: MAP_READ,
      schema: {
        tags: ['map'],
        summary: `Слой инцидентов ИСПВ за период from..to (ISO 8601; по умолчанию последние сутки; не длиннее ${MAX_INCIDENT_PERIOD_DAYS} сут.), в области bbox=юг,запад,север,восток; новые первыми, не более ${MAX_INCIDENTS} (заголовок x-truncated: true, если больше)`,
        querystring: {
          type: 'object',
          properties: { from: { type: 'string', maxLength: 40 }, to: { type: 'string', maxLength: 40 }, bbox: BBOX_SCHEMA },
        },
      },
    },
    async (request, reply): Promise<IncidentEvent[]> => {
      const { query } = request;
      const to = query.to ? new Date(query.to) : new Date();
      const from = query.from ? new Date(query.from) : new Date(to.getTime() - DAY_MS);
      if (Number.isNaN(from.getTime())) throw fail(400, 'bad_request', 'from is not a date');
      if (Number.isNaN(to.getTime())) throw fail(400, 'bad_request', 'to is not a date');
      if (to < from) throw fail(400, 'bad_request', 'to is before from');
      if (to.getTime() - from.getTime() > MAX_INCIDENT_PERIOD_DAYS * DAY_MS)
        throw fail(400, 'bad_request', `period longer than ${MAX_INCIDENT_PERIOD_DAYS} days`);
      const [south, west, north, east] = query.bbox ? parseBbox(query.bbox) : [-90, -180, 90, 180];
      const rows = await app.db.query<IncidentEvent & { tm: Date | string }>(
        `select id::float8 as id, depot_number, incident_type, tm, speed, lat, lon
         from adas.incident_event
        where tm >= $1 and tm <= $2 and lat between $3 and $5 and lon between $4 and $6
        order by tm desc, id desc
        limit ${MAX_INCIDENTS + 1}`,
        [from.toISOString(), to.toISOString(), south, west, north, east],
      );
      if (rows.length > MAX_INCIDENTS) reply.header('x-truncated', 'true');
      return rows.slice(0, MAX_INCIDENTS).map((row) => ({ ...row, tm: new Date(row.tm).toISOString() }));
    },
  );
}
