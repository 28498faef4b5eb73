import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { neutralizeCell } from '../../shared/handbooks/csv';
import { cellText } from '../../shared/reports/cells';
import { russianValueLabel } from '../../shared/reports/valueNames';
import { plainNumber } from '../../shared/format';
import { streamExport, type ExportSheet } from '../http/exportStream';
import type { ExportFormat, ReportDeclaration } from '../../shared/reports/types';
import { afterLast, orderBy, reportQuery, wrap, type ReportSort, type Row } from './reportQuery';
import type { ReportSource, ReportSql } from './reportSource';

/** Kinds whose cells may hold free text: a spreadsheet must not run them as formulas. */
const TEXT_TYPES = new Set(['text', 'enum', 'json']);

/** A report's file: its declared columns, cells as the table shows them, numbers as numbers in XLSX. */
function reportSheet(report: ReportDeclaration, format: ExportFormat, offset: number): ExportSheet<Row> {
  const columns = report.columns;
  return {
    format,
    title: report.title,
    csvHeader: columns.map((c) => c.header),
    csvRow: (row) =>
      columns.map((c) => {
        const text = cellText(c, row[c.name], offset, russianValueLabel);
        return TEXT_TYPES.has(c.type) ? neutralizeCell(text) : text;
      }),
    xlsxColumns: columns.map((c) => ({ header: c.header, width: c.type === 'datetime' ? 20 : 16 })),
    xlsxRow: (row) =>
      columns.map((c) => {
        const value = row[c.name];
        if (value === null || value === undefined) return null;
        return (c.type === 'number' || c.type === 'integer') && typeof value === 'number'
          ? plainNumber(value, c.decimals)
          : cellText(c, value, offset, russianValueLabel);
      }),
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
): Promise<Readable> {
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
  // the next batch is read while this one is written: the database and the file writer work side by side
  const next = (written: Row[]) => (key && written.length === size ? read(written[written.length - 1]) : undefined);
  return streamExport(app.log, reportSheet(report, format, offset), first, next, { report: report.path });
}
