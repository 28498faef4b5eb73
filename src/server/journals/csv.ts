/**
 * CSV as the console's exports write it (spec section 2): UTF-8 with a BOM so that Excel reads the Cyrillic,
 * semicolon-separated, CRLF lines. A text cell a spreadsheet would run as a formula (starting with = + - @,
 * tab or CR) gets an apostrophe in front, Excel's own "this is text" mark; numbers are never formulas.
 */
export const CSV_BOM = '\uFEFF';
const DANGEROUS_START = /^[=+\-@\t\r]/;

export function neutralize(text: string): string {
  return DANGEROUS_START.test(text) ? `'${text}` : text;
}

export function quote(text: string): string {
  return /[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return quote(neutralize(typeof value === 'string' ? value : JSON.stringify(value)));
}

export function csvLine(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(';')}\r\n`;
}

/** DD.MM.YYYY HH:mm:ss (spec section 9) at the client's offset in minutes east of UTC. */
export function formatTime(value: Date | string, offsetMinutes: number): string {
  const shifted = new Date(new Date(value).getTime() + offsetMinutes * 60_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(shifted.getUTCDate())}.${pad(shifted.getUTCMonth() + 1)}.${shifted.getUTCFullYear()} `
    + `${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${pad(shifted.getUTCSeconds())}`;
}
