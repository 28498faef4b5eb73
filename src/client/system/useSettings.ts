import { useCallback, useState } from 'react';
import { getJson, HttpError, request } from '../../web/providers/httpClient';
import { useApiQuery, webQueries } from '../../web/providers/queries';
import { reloadCurrentUser } from '../../web/providers/session';
import { fromFormValues, serverFieldErrors, type SettingsView } from './settingsForm';

export interface SettingsState {
  view: SettingsView | null;
  failed: boolean;
  /** Bumped after each save so the form starts again from the saved values. */
  version: number;
  /** The form's submit: resolves with field errors for the form, or undefined when saved. */
  save: (values: SettingsView) => Promise<Record<string, unknown> | undefined>;
}

/**
 * GET a settings view, and PUT it back. A refusal (400) is shown by the http client and returned as
 * field errors; after a save the current user is reloaded, since the switches shape its menu.
 */
export function useSettings(api: string, onSaved: () => void): SettingsState {
  const query = useApiQuery(['settings', api], (signal) => getJson<SettingsView>(api, { signal }));
  const view = query.data ?? null;
  const [version, setVersion] = useState(0);
  const save = useCallback(
    async (values: SettingsView) => {
      if (!view) return undefined;
      try {
        const saved = (await request<SettingsView>(api, { method: 'PUT', body: fromFormValues(values, view), spinner: true })).body;
        webQueries.setQueryData(['settings', api], saved);
        setVersion((n) => n + 1);
        onSaved();
        await reloadCurrentUser().catch(() => undefined);
        return undefined;
      } catch (error) {
        return error instanceof HttpError && error.status === 400 ? serverFieldErrors(error.messages) : undefined;
      }
    },
    [api, view, onSaved],
  );
  return { view, failed: query.isError, version, save };
}
