import { keepPreviousData, QueryClient, useMutation, useQuery } from '@tanstack/react-query';
import {
  DISPATCH_API,
  type AcknowledgeBody,
  type AdherenceList,
  type BoardException,
  type BoardList,
  type DispatchOptions,
  type ExitsList,
  type RouteLine,
  type StopArrivals,
  type VehicleCard,
} from '../../shared/dispatch/api';
import { getJson, postJson } from '../providers/httpClient';

/**
 * The dispatch screens' reads and writes (src/shared/dispatch/api.ts) through react-query: the live ones poll
 * every few seconds, the previous answer stays on screen while the next loads, a failure is the query's error
 * (shown by the screen) rather than the global message stack. Their own client, so the map's cards read them in
 * the console and in the field app alike (the field app has no react-admin and no client of its own).
 */
export const LIVE_MS = 5_000;

export const dispatchQueries = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });

const path = (template: string, id: number) => template.replace(':id', String(id));
const quiet = { handleErrors: false } as const;

export interface BoardFilters {
  depot: number[];
  route: number[];
  kind: string[];
}

const boardQuery = (f: BoardFilters) => {
  const query: Record<string, string> = {};
  if (f.depot.length) query.depot = f.depot.join(',');
  if (f.route.length) query.route = f.route.join(',');
  if (f.kind.length) query.kind = f.kind.join(',');
  return query;
};

export const useBoard = (filters: BoardFilters) =>
  useQuery(
    {
      queryKey: ['dispatch', 'board', filters],
      queryFn: ({ signal }) => getJson<BoardList>(DISPATCH_API.exceptions, { ...quiet, signal, query: boardQuery(filters) }),
      refetchInterval: LIVE_MS,
      placeholderData: keepPreviousData,
    },
    dispatchQueries,
  );

export const useOptions = () =>
  useQuery(
    {
      queryKey: ['dispatch', 'options'],
      queryFn: ({ signal }) => getJson<DispatchOptions>(DISPATCH_API.options, { ...quiet, signal }),
      staleTime: 60_000,
    },
    dispatchQueries,
  );

export const useRouteLine = (routeId: number) =>
  useQuery(
    {
      queryKey: ['dispatch', 'line', routeId],
      queryFn: ({ signal }) => getJson<RouteLine>(path(DISPATCH_API.line, routeId), { ...quiet, signal }),
      refetchInterval: LIVE_MS,
      placeholderData: keepPreviousData,
    },
    dispatchQueries,
  );

export const useVehicleCard = (vehicleId: number | null, enabled = true) =>
  useQuery(
    {
      queryKey: ['dispatch', 'card', vehicleId],
      queryFn: ({ signal }) => getJson<VehicleCard>(path(DISPATCH_API.vehicleCard, vehicleId!), { ...quiet, signal }),
      enabled: enabled && vehicleId !== null,
      refetchInterval: LIVE_MS,
    },
    dispatchQueries,
  );

export const useStopArrivals = (stopId: number, enabled = true) =>
  useQuery(
    {
      queryKey: ['dispatch', 'arrivals', stopId],
      queryFn: ({ signal }) => getJson<StopArrivals>(path(DISPATCH_API.arrivals, stopId), { ...quiet, signal }),
      enabled,
      refetchInterval: LIVE_MS,
    },
    dispatchQueries,
  );

export const useAdherence = (enabled: boolean) =>
  useQuery(
    {
      queryKey: ['dispatch', 'adherence'],
      queryFn: ({ signal }) => getJson<AdherenceList>(DISPATCH_API.adherence, { ...quiet, signal }),
      enabled,
      refetchInterval: LIVE_MS,
      placeholderData: keepPreviousData,
    },
    dispatchQueries,
  );

export const useExits = (date: string, scope: { route?: number; depot?: number }) =>
  useQuery(
    {
      queryKey: ['dispatch', 'exits', date, scope],
      queryFn: ({ signal }) =>
        getJson<ExitsList>(DISPATCH_API.exits, {
          ...quiet,
          signal,
          query: { date, route: scope.route, depot: scope.depot },
        }),
      enabled: Boolean(date) && (scope.route !== undefined || scope.depot !== undefined),
    },
    dispatchQueries,
  );

/** Acknowledges an exception; the board is read again at once. */
export function useAcknowledge() {
  return useMutation(
    {
      mutationFn: (body: AcknowledgeBody) => postJson<BoardException>(DISPATCH_API.acknowledge, body, quiet),
      onSuccess: () => dispatchQueries.invalidateQueries({ queryKey: ['dispatch', 'board'] }),
    },
    dispatchQueries,
  );
}
