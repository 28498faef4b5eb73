/** Display rules of the journals (spec section 9: DD.MM.YYYY HH:mm:ss), in the browser's time zone. */
const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO time (or Date) as DD.MM.YYYY HH:mm:ss local time; '' when absent or invalid. */
export function formatDateTime(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(String(value));
  if (Number.isNaN(date.getTime())) return '';
  return `${pad(date.getDate())}.${pad(date.getMonth() + 1)}.${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** The translation key of a user action ('login', 'update', …) or of a generic write ('POST /api/…'). */
export function actionKey(action: string): string | undefined {
  return /^[a-z_]+$/.test(action) ? `journals.actions.${action}` : undefined;
}

/** The translation key of a journaled object's kind: 'settings.video' reads as the settings of that page. */
export function objectKey(object: string): { key: string; sub?: string } | undefined {
  const [kind, sub] = object.split('.', 2);
  if (!/^[a-z_]+$/.test(kind)) return undefined;
  return { key: `journals.objects.${kind}`, sub };
}
