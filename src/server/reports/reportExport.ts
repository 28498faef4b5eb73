import { PassThrough } from 'node:stream';
import { once } from 'node:events';
import type { FastifyInstance } from 'fastify';
import ExcelJS from 'exceljs';
import { CSV_BOM, csvLine, neutralizeCell } from '../../shared/handbooks/csv';
import { cellText } from '../../shared/reports/cells';
import { russianValueLabel } from '../../shared/reports/valueNames';
import { plainNumber } from '../../shared/format';
import { nextTurn, ROWS_PER_TURN } from '../http/eventLoop';
import type { ExportFormat, ReportColumn, ReportDeclaration } from '../../shared/reports/types';
import { afterLast, orderBy, reportQuery, wrap, type ReportSort, type Row } from './reportQuery';
import type { ReportSource, ReportSql } from './reportSource';

export const EXPORT_TYPES: Readonly<Record<ExportFormat, string>> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Kinds whose cells may hold free text: a spreadsheet must not run them as formulas. */
const TEXT_TYPES = new Set(['text', 'enum', 'json']);

interface SheetWriter {
  row(row: Row): Promise<void>;
  end(): Promise<void>;
}

/** CSV the way the product writes it (spec section 2): BOM, semicolons, CRLF, text cells neutralised. */
function csvWriter(
  out: PassThrough,
  columns: readonly ReportColumn[],
  offset: number,
  write: (text: string) => Promise<void>,
): SheetWriter {
  let pending = CSV_BOM + csvLine(columns.map((c) => c.header));
  return {
    async row(row) {
      pending += csvLine(
        columns.map((c) => {
          const text = cellText(c, row[c.name], offset, russianValueLabel);
          return TEXT_TYPES.has(c.type) ? neutralizeCell(text) : text;
        }),
      );
      if (pending.length > 64_000) {
        await write(pending);
        pending = '';
      }
    },
    async end() {
      await write(pending);
      out.end();
    },
  };
}

/** XLSX through exceljs' streaming writer: each row is committed (and leaves memory) as it is written. */
function xlsxWriter(
  out: PassThrough,
  report: ReportDeclaration,
  columns: readonly ReportColumn[],
  offset: number,
  drain: () => Promise<void>,
): SheetWriter {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(report.title.slice(0, 31));
  sheet.columns = columns.map((c) => ({ header: c.header, key: c.name, width: c.type === 'datetime' ? 20 : 16 }));
  let written = 0;
  return {
    async row(row) {
      sheet
        .addRow(
          columns.map((c) => {
            const value = row[c.name];
            if (value === null || value === undefined) return null;
            return (c.type === 'number' || c.type === 'integer') && typeof value === 'number'
              ? plainNumber(value, c.decimals)
              : cellText(c, value, offset, russianValueLabel);
          }),
        )
        .commit();
      if (++written % 1000 === 0) await drain();
    },
    async end() {
      sheet.commit();
      await workbook.commit();
    },
  };
}

/**
 * The export of exactly what the filters select, streamed: rows reports in keyset batches (no connection or
 * transaction held while a slow client downloads, memory at one batch of EXPORT_BATCH_ROWS), a summary in its
 * one query. The first rows are read before the response starts, so a failing query is a JSON error. A
 * failure later is logged and aborts the response (the connection is cut before the file's end: the browser
 * reports a failed download, never a short file that looks complete); it never reaches the process.
 */
export async function exportReport(
  app: FastifyInstance,
  report: ReportDeclaration,
  source: ReportSource,
  sql: ReportSql,
  sort: ReportSort,
  format: ExportFormat,
  offset: number,
): Promise<PassThrough> {
  const order = orderBy(report, source, sort);
  const size = app.config.exportBatchRows;
  const key = source.key;
  const read = (last?: Row): Promise<Row[]> => {
    if (!key) return reportQuery(app, `select * from ${wrap(sql)} ${order}`, sql.params);
    const params = [...sql.params];
    const after = last ? `where ${afterLast(sort, key, { sort: last.__sort as string | null, key: last[key] }, params)}` : '';
    return reportQuery(app, `select r.*, (${sort.expr})::text as "__sort" from ${wrap(sql)} ${after} ${order} limit ${size}`, params);
  };
  const first = await read();

  const out = new PassThrough();
  const columns = report.columns;
  const drain = async () => {
    if (out.writableNeedDrain) await Promise.race([once(out, 'drain'), once(out, 'close')]);
    if (out.destroyed) throw new Error('client went away');
  };
  const write = async (text: string) => {
    out.write(text);
    await drain();
  };
  const writer = format === 'xlsx' ? xlsxWriter(out, report, columns, offset, drain) : csvWriter(out, columns, offset, write);

  const writeRows = async (rows: Row[]) => {
    for (const [i, row] of rows.entries()) {
      await writer.row(row);
      if (i % ROWS_PER_TURN === ROWS_PER_TURN - 1) await nextTurn();
    }
  };
  const run = async () => {
    for (let rows: Row[] | undefined = first; rows;) {
      // the next batch is read while this one is written: the database and the file writer work side by side
      const next: Promise<Row[]> | undefined = key && rows.length === size ? read(rows[rows.length - 1]) : undefined;
      // handled now, awaited after the writing: a failure meanwhile must end the download, not the process
      next?.catch(() => undefined);
      await writeRows(rows);
      rows = await next;
    }
  };

  run()
    .then(() => writer.end())
    .catch((error: unknown) => {
      if (!out.destroyed) {
        app.log.error({ err: error, report: report.path }, 'report export failed');
        out.destroy(error instanceof Error ? error : new Error(String(error)));
      }
    });
  return out;
}
