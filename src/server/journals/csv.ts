import { CSV_BOM, csvLine as handbookCsvLine, neutralizeCell, quoteCell } from '../../shared/handbooks/csv';

/**
 * Journal exports write CSV as the handbook exports do (spec section 2): UTF-8 with a BOM, semicolons, CRLF,
 * formula cells neutralised. Only the cell values differ: numbers are never formulas, objects go as JSON.
 */
export { CSV_BOM };

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return neutralizeCell(typeof value === 'string' ? value : JSON.stringify(value));
}

/** One cell as it stands in the file (neutralised, quoted when needed). */
export function csvCell(value: unknown): string {
  return quoteCell(cellText(value));
}

export function csvLine(cells: readonly unknown[]): string {
  return handbookCsvLine(cells.map(cellText));
}

/** DD.MM.YYYY HH:mm:ss (spec section 9) at the client's offset in minutes east of UTC. */
export function formatTime(value: Date | string, offsetMinutes: number): string {
  const shifted = new Date(new Date(value).getTime() + offsetMinutes * 60_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(shifted.getUTCDate())}.${pad(shifted.getUTCMonth() + 1)}.${shifted.getUTCFullYear()} `
    + `${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${pad(shifted.getUTCSeconds())}`;
}
