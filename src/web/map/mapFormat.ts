/** Map input helpers (coordinates, dates and times as text: src/shared/format.ts). */
const pad = (n: number) => String(n).padStart(2, '0');

/** A time as the value of an <input type="datetime-local"> (local time, minutes). */
export function toLocalInput(time: number): string {
  const d = new Date(time);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The value of a datetime-local input as epoch ms; NaN when empty or invalid. */
export function fromLocalInput(value: string): number {
  return value ? new Date(value).getTime() : Number.NaN;
}

export function fullName(...parts: (string | null | undefined)[]): string {
  return parts.filter((part): part is string => Boolean(part && part.trim())).join(' ');
}
