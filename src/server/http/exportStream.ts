import { PassThrough } from 'node:stream';
import { once } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import ExcelJS from 'exceljs';
import { CSV_BOM, csvLine } from '../../shared/handbooks/csv';
import { nextTurn, ROWS_PER_TURN } from './eventLoop';

export type SheetFormat = 'csv' | 'xlsx';

export const SHEET_CONTENT_TYPES: Readonly<Record<SheetFormat, string>> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

const SHEET_NAME_MAX = 31;
const CSV_CHUNK = 64_000;

/** What an area says of its file: the header rows and how a row becomes cells, in each format. */
export interface ExportSheet<R> {
  format: SheetFormat;
  /** The XLSX sheet's name (cut to Excel's 31 characters, its forbidden characters replaced). */
  title: string;
  csvHeader: readonly string[];
  csvRow(row: R): readonly string[];
  xlsxColumns: readonly { header: string; width: number }[];
  xlsxRow(row: R): readonly (string | number | null)[];
}

interface SheetWriter<R> {
  row(row: R): Promise<void>;
  end(): Promise<void>;
}

/** CSV the way the product writes it (spec section 2): BOM, semicolons, CRLF; written in chunks as the client takes them. */
function csvWriter<R>(out: PassThrough, sheet: ExportSheet<R>, drain: () => Promise<void>): SheetWriter<R> {
  // the header goes at once: the response starts with it, so a failure later is a download cut short
  out.write(CSV_BOM + csvLine(sheet.csvHeader));
  let pending = '';
  const flush = async () => {
    out.write(pending);
    pending = '';
    await drain();
  };
  return {
    async row(row) {
      pending += csvLine(sheet.csvRow(row));
      if (pending.length > CSV_CHUNK) await flush();
    },
    end: flush,
  };
}

/** XLSX through exceljs' streaming writer: each row is committed (and leaves memory) as it is written. */
function xlsxWriter<R>(out: PassThrough, sheet: ExportSheet<R>, drain: () => Promise<void>): SheetWriter<R> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const worksheet = workbook.addWorksheet(sheet.title.replace(/[[\]:*?/\\]/g, ' ').slice(0, SHEET_NAME_MAX));
  worksheet.columns = sheet.xlsxColumns.map((c, i) => ({ header: c.header, key: String(i), width: c.width }));
  let written = 0;
  return {
    async row(row) {
      worksheet.addRow([...sheet.xlsxRow(row)]).commit();
      if (++written % 1000 === 0) await drain();
    },
    async end() {
      worksheet.commit();
      await workbook.commit();
    },
  };
}

/**
 * The one export writer of reports and handbooks: the rows of `first`, then of each batch `next` reads (given
 * the batch written last; undefined when there is no more), written as the client takes them. The next batch is
 * read while this one is written, and the event loop is let go every ROWS_PER_TURN rows, so a large export
 * stalls nobody. The caller reads the first batch before the response starts, so a failing query is a JSON
 * error; a failure later is logged and cuts the response (the browser reports a failed download, never a short
 * file that looks complete), and never reaches the process.
 */
export function streamExport<R>(
  log: FastifyBaseLogger,
  sheet: ExportSheet<R>,
  first: R[],
  next: (written: R[]) => Promise<R[]> | undefined,
  context: Record<string, unknown> = {},
): PassThrough {
  const out = new PassThrough();
  const drain = async () => {
    if (out.writableNeedDrain) await Promise.race([once(out, 'drain'), once(out, 'close')]);
    if (out.destroyed) throw new Error('client went away');
  };
  const writer = sheet.format === 'xlsx' ? xlsxWriter(out, sheet, drain) : csvWriter(out, sheet, drain);
  const run = async () => {
    // the response has started (200, the headers) before anything can fail: a failure from here on cuts the download
    if (!out.readableFlowing) await Promise.race([once(out, 'resume'), once(out, 'close')]);
    for (let rows: R[] | undefined = first; rows;) {
      const following: Promise<R[]> | undefined = rows.length ? next(rows) : undefined;
      // handled now, awaited after the writing: a failure meanwhile must end the download, not the process
      following?.catch(() => undefined);
      for (const [i, row] of rows.entries()) {
        await writer.row(row);
        if (i % ROWS_PER_TURN === ROWS_PER_TURN - 1) await nextTurn();
      }
      rows = await following;
    }
    await writer.end();
  };
  run()
    // exceljs ends the stream it wrote the workbook to
    .then(() => !out.writableEnded && out.end())
    .catch((error: unknown) => {
      if (out.destroyed) return;
      log.error({ err: error, ...context }, 'export failed');
      out.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  return out;
}
