import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import {
  DISPATCH_ALERTS_API,
  type AlertBody,
  type AlertList,
  type AlertRouteList,
  type AlertsFilter,
  type AlertStopList,
  type ServiceAlert,
} from '../../shared/dispatch/alerts';
import { getJson, postJson, request } from '../../web/providers/httpClient';
import { dispatchQueries, LIVE_MS } from '../../web/dispatch/dispatchApi';

/** Service alerts (src/shared/dispatch/alerts.ts) on the dispatch screens' own client. */
const quiet = { handleErrors: false } as const;
const path = (template: string, id: number) => template.replace(':id', String(id));
const refresh = () => dispatchQueries.invalidateQueries({ queryKey: ['dispatch', 'alerts'] });

export const useAlerts = (state: AlertsFilter) =>
  useQuery(
    {
      queryKey: ['dispatch', 'alerts', state],
      queryFn: ({ signal }) => getJson<AlertList>(DISPATCH_ALERTS_API.alerts, { ...quiet, signal, query: { state } }),
      refetchInterval: LIVE_MS,
      placeholderData: keepPreviousData,
    },
    dispatchQueries,
  );

/** The published alerts in force now, read as often as the board (for who may read the alerts). */
export const useAlertsInForce = (enabled: boolean) =>
  useQuery(
    {
      queryKey: ['dispatch', 'alerts', 'in_force'],
      queryFn: ({ signal }) => getJson<AlertList>(DISPATCH_ALERTS_API.alerts, { ...quiet, signal, query: { state: 'in_force' } }),
      refetchInterval: LIVE_MS,
      placeholderData: keepPreviousData,
      enabled,
    },
    dispatchQueries,
  );

export const useAlertRoutes = () =>
  useQuery(
    {
      queryKey: ['dispatch', 'alertRoutes'],
      queryFn: ({ signal }) => getJson<AlertRouteList>(DISPATCH_ALERTS_API.routes, { ...quiet, signal }),
      staleTime: 60_000,
    },
    dispatchQueries,
  );

/** Stops whose name holds `text` (at most 50). */
export const useAlertStops = (text: string) =>
  useQuery(
    {
      queryKey: ['dispatch', 'alertStops', text],
      queryFn: ({ signal }) => getJson<AlertStopList>(DISPATCH_ALERTS_API.stops, { ...quiet, signal, query: { q: text } }),
      staleTime: 60_000,
      placeholderData: keepPreviousData,
    },
    dispatchQueries,
  );

/** Writes a draft, or edits the draft `id`. */
export function useSaveAlert() {
  return useMutation(
    {
      mutationFn: async ({ id, body }: { id?: number; body: AlertBody }) =>
        id === undefined
          ? postJson<ServiceAlert>(DISPATCH_ALERTS_API.alerts, body, quiet)
          : (await request<ServiceAlert>(path(DISPATCH_ALERTS_API.alert, id), { ...quiet, method: 'PUT', body })).body,
      onSuccess: refresh,
    },
    dispatchQueries,
  );
}

/** Publishes, ends or deletes an alert. */
export function useAlertAction() {
  return useMutation(
    {
      mutationFn: async ({ id, action }: { id: number; action: 'publish' | 'end' | 'delete' }) => {
        if (action === 'delete') await request(path(DISPATCH_ALERTS_API.alert, id), { ...quiet, method: 'DELETE' });
        else await postJson<ServiceAlert>(path(DISPATCH_ALERTS_API[action], id), undefined, quiet);
      },
      onSuccess: refresh,
    },
    dispatchQueries,
  );
}
