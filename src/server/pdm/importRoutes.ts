import type { FastifyInstance } from 'fastify';
import Papa from 'papaparse';
import { fail } from '../http/errors';
import { CSV_BOM, csvLine, neutralizeCell, restoreCell } from '../../shared/handbooks/csv';
import { clientOffset } from '../reports/reportsRoutes';
import {
  IMPORT_FIELDS,
  IMPORT_KINDS,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  PDM_API,
  SERVICE_WORKS,
  parseChannelCode,
  type ImportKind,
  type ServiceWork,
} from '../../shared/pdm/model';
import type { Reading } from './readingWriter';
import { idParams } from '../http/pathIds';

const PATH = '/pdm/import-manager';
const MAX_ERRORS_KEPT = 500;

interface ImportBody {
  kind: ImportKind;
  file_name: string;
  content: string;
  mapping: Record<string, string>;
  dry_run: boolean;
}

interface RowError {
  line: number;
  column: string;
  message: string;
}

const WORK_WORDS: Readonly<Record<string, ServiceWork>> = {
  repair: 'repair',
  ремонт: 'repair',
  maintenance: 'maintenance',
  то: 'maintenance',
  обслуживание: 'maintenance',
  техобслуживание: 'maintenance',
  calibration: 'calibration',
  калибровка: 'calibration',
  replacement: 'replacement',
  замена: 'replacement',
};

/** A time as the files carry it: ISO 8601 (its zone, or the user's), or DD.MM.YYYY[ HH:mm[:ss]] in the user's zone. */
export function importTime(text: string, offsetMinutes: number): number | undefined {
  const s = text.trim();
  const ru = /^(\d{2})\.(\d{2})\.(\d{4})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(s);
  if (ru) {
    const [, d, m, y, hh = '0', mm = '0', ss = '0'] = ru;
    const utc = Date.UTC(+y, +m - 1, +d, +hh, +mm, +ss);
    const check = new Date(utc);
    if (check.getUTCDate() !== +d || check.getUTCMonth() !== +m - 1 || +hh > 23 || +mm > 59 || +ss > 59) return undefined;
    return utc - offsetMinutes * 60_000;
  }
  if (!/^\d{4}-\d{2}-\d{2}/.test(s) || s.length > 40) return undefined;
  if (/(Z|[+-]\d{2}:?\d{2})$/i.test(s) && s.length > 10) {
    const t = Date.parse(s);
    return Number.isNaN(t) ? undefined : t;
  }
  // No zone: the user's wall clock.
  const t = Date.parse(`${s.length === 10 ? `${s}T00:00:00` : s.replace(' ', 'T')}Z`);
  return Number.isNaN(t) ? undefined : t - offsetMinutes * 60_000;
}

const numberOf = (text: string): number | undefined => {
  const s = text.trim().replace(/\s/g, '').replace(',', '.');
  if (!/^-?\d+(\.\d+)?$/.test(s)) return undefined;
  return Number(s);
};

/**
 * A line of the refused rows' file: the cells as the file had them, guarded against formula injection like
 * every CSV the product writes (the import takes the guard off again, so a corrected file imports as written).
 */
const refusedLine = (cells: readonly string[]) => csvLine(cells.map(neutralizeCell));

/**
 * /pdm/import-manager (code 42): sensor readings or service records from a CSV file. The console previews the
 * file and maps its columns; the server checks every row (line, column, reason), and a dry run reports what
 * would be added and skipped without writing. A real run writes the good rows in one transaction (readings
 * through the same writer as telemetry: states and rollups follow); rows already stored are skipped, so a
 * re-import adds nothing. Each run is kept in the history with its failed rows as a downloadable file.
 */
export default async function importRoutes(app: FastifyInstance): Promise<void> {
  app.post<{ Body: ImportBody }>(
    `${PDM_API}/imports`,
    {
      config: { access: { path: PATH, action: 'create' }, module: 'pdm' },
      bodyLimit: IMPORT_MAX_BYTES + 64 * 1024,
      schema: {
        tags: ['pdm'],
        summary:
          'Импорт файла показаний датчиков (depot_number, sensor — канал A1/D3/C1/L0 или имя датчика в дереве ТС, tm, value, error) ' +
          'или сервисных записей (depot_number, node — имя узла, tm, work — ремонт/ТО/калибровка/замена, next_due, comment): mapping — поле → заголовок столбца; dry_run — проверка без записи',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['kind', 'file_name', 'content', 'mapping', 'dry_run'],
          properties: {
            kind: { type: 'string', enum: [...IMPORT_KINDS] },
            file_name: { type: 'string', minLength: 1, maxLength: 255 },
            content: { type: 'string', maxLength: IMPORT_MAX_BYTES },
            mapping: { type: 'object', maxProperties: 10, additionalProperties: { type: 'string', maxLength: 200 } },
            dry_run: { type: 'boolean' },
          },
        },
      },
    },
    async (request) => {
      const { kind, file_name: fileName, content, mapping, dry_run: dryRun } = request.body;
      const fields = IMPORT_FIELDS[kind];
      if (Object.keys(mapping).some((field) => ![...fields.required, ...fields.optional].includes(field)))
        throw fail(400, 'pdm_import_mapping');
      const parsed = Papa.parse<string[]>(content.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy', delimiter: '' });
      const [header, ...body] = parsed.data.map((row) => row.map(restoreCell));
      if (!header || header.length < 2 || parsed.errors.some((e) => e.type === 'Quotes')) throw fail(400, 'pdm_import_bad_file');
      if (body.length > IMPORT_MAX_ROWS) throw fail(400, 'payload_too_large');
      const columnOf: Record<string, number> = {};
      for (const field of [...fields.required, ...fields.optional]) {
        const name = mapping[field];
        if (name === undefined || name === '') continue;
        const index = header.findIndex((h) => h.trim() === name.trim());
        if (index < 0) throw fail(400, 'pdm_import_mapping', field);
        columnOf[field] = index;
      }
      if (fields.required.some((field) => columnOf[field] === undefined)) throw fail(400, 'pdm_import_mapping');
      const offset = clientOffset(request);

      const depots = new Set<number>();
      for (const row of body) {
        const n = numberOf(row[columnOf.depot_number] ?? '');
        if (n !== undefined && Number.isInteger(n) && n >= 0 && n < 2 ** 31) depots.add(n);
      }
      const vehicles = new Map(
        (
          await app.db.query<{ id: number; depot_number: number; tree_id: number | null }>(
            'select v.id, v.depot_number, tv.tree_id from mgt.vehicles v left join pdm.tree_vehicle tv on tv.vehicle_id = v.id where v.depot_number = any($1::int[])',
            [[...depots]],
          )
        ).map((v) => [v.depot_number, v]),
      );
      const trees = [...new Set([...vehicles.values()].map((v) => v.tree_id).filter((t): t is number => t !== null))];
      const nodes = await app.db.query<{
        id: number;
        tree_id: number;
        name: string;
        channel_kind: string | null;
        channel: number | null;
        scale: number;
        offset: number;
      }>('select id, tree_id, name, channel_kind, channel, scale, "offset" from pdm.node where tree_id = any($1::int[])', [trees]);

      const errors: RowError[] = [];
      const failedLines: string[] = [];
      const readings: (Reading & { line: number })[] = [];
      const services: {
        line: number;
        vehicle_id: number;
        node_id: number;
        tm: string;
        work: ServiceWork;
        next_due: string | null;
        comment: string | null;
      }[] = [];
      body.forEach((row, i) => {
        const line = i + 2;
        const rowErrors: RowError[] = [];
        const cell = (field: string) => (columnOf[field] === undefined ? '' : (row[columnOf[field]] ?? '').trim());
        const bad = (field: string, message: string) => rowErrors.push({ line, column: mapping[field] ?? field, message });
        const vehicle = vehicles.get(numberOf(cell('depot_number')) ?? -1);
        if (!vehicle) bad('depot_number', 'vehicle_not_found');
        const tm = importTime(cell('tm'), offset);
        if (tm === undefined || tm > Date.now() + 300_000) bad('tm', 'bad_time');
        if (kind === 'sensors') {
          const ref = cell('sensor');
          const channel = parseChannelCode(ref);
          const candidates =
            vehicle?.tree_id == null
              ? []
              : nodes.filter(
                  (n) =>
                    n.tree_id === vehicle.tree_id &&
                    n.channel_kind !== null &&
                    (channel
                      ? n.channel_kind === channel.kind && n.channel === channel.number
                      : n.name.toLowerCase() === ref.toLowerCase()),
                );
          if (vehicle && vehicle.tree_id === null) bad('sensor', 'pdm_no_tree');
          else if (vehicle && candidates.length !== 1) bad('sensor', candidates.length ? 'ambiguous' : 'sensor_not_found');
          const errorText = cell('error').toLowerCase();
          const error = ['1', 'true', 'да', 'yes'].includes(errorText);
          const value = cell('value') === '' && error ? null : numberOf(cell('value'));
          if (value === undefined) bad('value', 'bad_number');
          if (!rowErrors.length)
            readings.push({
              line,
              vehicleId: vehicle!.id,
              nodeId: candidates[0].id,
              tm: Math.floor(tm! / 1000) * 1000,
              value: value ?? null,
              error,
            });
        } else {
          const ref = cell('node').toLowerCase();
          const node =
            vehicle?.tree_id == null
              ? undefined
              : nodes.find((n) => n.tree_id === vehicle.tree_id && (n.name.toLowerCase() === ref || String(n.id) === ref));
          if (vehicle && !node) bad('node', 'node_not_found');
          const work = WORK_WORDS[cell('work').toLowerCase()];
          if (!work || !SERVICE_WORKS.includes(work)) bad('work', 'bad_work');
          const dueText = cell('next_due');
          const due = dueText ? importTime(dueText, 0) : null;
          if (due === undefined) bad('next_due', 'bad_date');
          const comment = cell('comment');
          if (comment.length > 500) bad('comment', 'too_long');
          if (!rowErrors.length) {
            services.push({
              line,
              vehicle_id: vehicle!.id,
              node_id: node!.id,
              tm: new Date(tm!).toISOString(),
              work: work!,
              next_due: due === null ? null : new Date(due!).toISOString().slice(0, 10),
              comment: comment || null,
            });
          }
        }
        if (rowErrors.length) {
          errors.push(...rowErrors);
          failedLines.push(refusedLine([...row, rowErrors.map((e) => `${e.column}: ${e.message}`).join(', ')]));
        }
      });

      let added = 0;
      let skipped = 0;
      if (kind === 'sensors') {
        if (dryRun) {
          const [{ n }] = await app.db.query<{ n: number }>(
            `select count(*)::int as n from pdm.reading r join unnest($1::int[], $2::int[], $3::timestamptz[]) as k(v, n, t) on r.vehicle_id = k.v and r.node_id = k.n and r.tm = k.t`,
            [readings.map((r) => r.vehicleId), readings.map((r) => r.nodeId), readings.map((r) => new Date(r.tm).toISOString())],
          );
          const distinct = new Set(readings.map((r) => `${r.vehicleId}:${r.nodeId}:${r.tm}`)).size;
          skipped = readings.length - distinct + n;
          added = distinct - n;
        } else {
          const outcome = await app.pdm.writer.writeNow(readings.map(({ line: _line, ...r }) => r));
          added = outcome.inserted;
          skipped = outcome.duplicates;
        }
      } else if (services.length) {
        const params = [
          services.map((s) => s.vehicle_id),
          services.map((s) => s.node_id),
          services.map((s) => s.tm),
          services.map((s) => s.work),
          services.map((s) => s.next_due),
          services.map((s) => s.comment),
        ];
        if (dryRun) {
          const [{ n }] = await app.db.query<{ n: number }>(
            `select count(distinct (k.v, k.n, k.t, k.w))::int as n from unnest($1::int[], $2::int[], $3::timestamptz[], $4::text[]) as k(v, n, t, w)
            where not exists (select 1 from pdm.service_record r where r.vehicle_id = k.v and r.node_id = k.n and r.tm = k.t and r.work = k.w)`,
            params.slice(0, 4),
          );
          added = n;
          skipped = services.length - n;
        } else {
          const inserted = await app.db.query(
            `insert into pdm.service_record (vehicle_id, node_id, tm, work, next_due, comment)
           select * from unnest($1::int[], $2::int[], $3::timestamptz[], $4::text[], $5::date[], $6::text[]) on conflict do nothing returning id`,
            params,
          );
          added = inserted.length;
          skipped = services.length - inserted.length;
        }
      }
      const refused = body.length - readings.length - services.length;
      const failedCsv = failedLines.length ? [refusedLine([...header, 'Ошибка']), ...failedLines].join('') : null;
      const [record] = await app.db.query<{ id: number; at: Date }>(
        `insert into pdm.import (kind, file_name, user_id, username, dry_run, mapping, rows, added, skipped, refused, errors, failed_csv)
       values ($1, $2, $3, (select username from app.users where id = $3), $4, $5, $6, $7, $8, $9, $10, $11) returning id, at`,
        [
          kind,
          fileName,
          request.user?.id ?? null,
          dryRun,
          JSON.stringify(mapping),
          body.length,
          added,
          skipped,
          refused,
          JSON.stringify(errors.slice(0, MAX_ERRORS_KEPT)),
          failedCsv,
        ],
      );
      if (!dryRun)
        await app.journal.record(request, {
          action: 'import',
          object: 'pdm.import',
          objectId: record.id,
          after: { kind, fileName, rows: body.length, added, skipped, refused },
        });
      return {
        id: record.id,
        dry_run: dryRun,
        rows: body.length,
        added,
        skipped,
        refused,
        errors: errors.slice(0, MAX_ERRORS_KEPT),
        failed: failedCsv !== null,
      };
    },
  );

  app.get<{ Querystring: { skipCount?: number; recordCount?: number } }>(
    `${PDM_API}/imports`,
    {
      config: { access: { path: PATH, action: 'read' }, module: 'pdm' },
      schema: {
        tags: ['pdm'],
        summary: 'История импорта: кто, когда, файл, строк добавлено, пропущено, отклонено',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            skipCount: { type: 'integer', minimum: 0, maximum: 2147483647, default: 0 },
            recordCount: { type: 'integer', minimum: 1, maximum: 1000, default: 30 },
          },
        },
      },
    },
    async (request) => {
      const list = await app.db.query(
        `select id, kind, file_name, username, at, dry_run, rows, added, skipped, refused, failed_csv is not null as failed from pdm.import order by at desc, id desc limit $1 offset $2`,
        [request.query.recordCount ?? 30, request.query.skipCount ?? 0],
      );
      const [{ count }] = await app.db.query<{ count: number }>('select count(*)::int as count from pdm.import');
      return { list, count };
    },
  );

  app.get<{ Params: { id: number } }>(
    `${PDM_API}/imports/:id/failed`,
    {
      config: { access: { path: PATH, action: 'read' }, module: 'pdm' },
      schema: { tags: ['pdm'], summary: 'Отклонённые строки импорта файлом CSV (с причиной в последнем столбце)', params: idParams },
    },
    async (request, reply) => {
      const [row] = await app.db.query<{ failed_csv: string | null }>('select failed_csv from pdm.import where id = $1', [
        request.params.id,
      ]);
      if (!row?.failed_csv) throw fail(404, 'pdm_import_not_found');
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="import-${request.params.id}-failed.csv"`)
        .send(`${CSV_BOM}${row.failed_csv}`);
    },
  );
}
