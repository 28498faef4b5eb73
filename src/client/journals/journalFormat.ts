/** Translation keys of the user-actions journal's cells (src/client/reports/reportCells.tsx). */
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
