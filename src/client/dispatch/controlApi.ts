import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import {
  DISPATCH_CONTROL_API,
  type AddRunBody,
  type HandoverBody,
  type CannedList,
  type CannedText,
  type ChangeBody,
  type ChangeRunList,
  type CloseStopBody,
  type DetourBody,
  type RouteStops,
  type ChangesList,
  type DriverMessage,
  type InboxList,
  type MessageList,
  type SendMessageBody,
  type ServiceChange,
} from '../../shared/dispatch/control';
import { getJson, postJson, request } from '../../web/providers/httpClient';
import { dispatchQueries, LIVE_MS } from '../../web/dispatch/dispatchApi';

/** Service changes and messages to drivers (src/shared/dispatch/control.ts) on the dispatch screens' own client. */
const quiet = { handleErrors: false } as const;
const path = (template: string, id: number) => template.replace(':id', String(id));

/** Every read the changes touch (the plan and fact, the board, the line) is read again after a change. */
const refreshAfterChange = () => dispatchQueries.invalidateQueries({ queryKey: ['dispatch'] });

export const useChanges = () =>
  useQuery(
    {
      queryKey: ['dispatch', 'changes'],
      queryFn: ({ signal }) => getJson<ChangesList>(DISPATCH_CONTROL_API.changes, { ...quiet, signal }),
      refetchInterval: LIVE_MS,
      placeholderData: keepPreviousData,
    },
    dispatchQueries,
  );

export const useChangeRuns = (scope: { route?: number; vehicle?: number }) =>
  useQuery(
    {
      queryKey: ['dispatch', 'changeRuns', scope],
      queryFn: ({ signal }) =>
        getJson<ChangeRunList>(DISPATCH_CONTROL_API.changeRuns, {
          ...quiet,
          signal,
          query: { route: scope.route, vehicle: scope.vehicle },
        }),
      enabled: scope.route !== undefined || scope.vehicle !== undefined,
      placeholderData: keepPreviousData,
    },
    dispatchQueries,
  );

export function useCreateChange() {
  return useMutation(
    {
      mutationFn: (body: ChangeBody) => postJson<ServiceChange>(DISPATCH_CONTROL_API.changes, body, quiet),
      onSuccess: refreshAfterChange,
    },
    dispatchQueries,
  );
}

export function useHandover() {
  return useMutation(
    {
      mutationFn: (body: HandoverBody) => postJson<ServiceChange>(DISPATCH_CONTROL_API.handover, body, quiet),
      onSuccess: refreshAfterChange,
    },
    dispatchQueries,
  );
}

export function useAddRun() {
  return useMutation(
    {
      mutationFn: (body: AddRunBody) => postJson<ServiceChange>(DISPATCH_CONTROL_API.addRun, body, quiet),
      onSuccess: refreshAfterChange,
    },
    dispatchQueries,
  );
}

/** A route's stops per direction, with their places (what a closure or a detour names). */
export const useRouteStops = (routeId: number | undefined) =>
  useQuery(
    {
      queryKey: ['dispatch', 'routeStops', routeId],
      queryFn: ({ signal }) => getJson<RouteStops>(DISPATCH_CONTROL_API.routeStops, { ...quiet, signal, query: { route: routeId } }),
      enabled: routeId !== undefined,
      staleTime: 60_000,
    },
    dispatchQueries,
  );

export function useCloseStop() {
  return useMutation(
    {
      mutationFn: (body: CloseStopBody) => postJson<ServiceChange>(DISPATCH_CONTROL_API.closeStop, body, quiet),
      onSuccess: refreshAfterChange,
    },
    dispatchQueries,
  );
}

export function useDetour() {
  return useMutation(
    {
      mutationFn: (body: DetourBody) => postJson<ServiceChange>(DISPATCH_CONTROL_API.detour, body, quiet),
      onSuccess: refreshAfterChange,
    },
    dispatchQueries,
  );
}

export function useRevokeChange() {
  return useMutation(
    {
      mutationFn: ({ id, reason }: { id: number; reason?: string }) =>
        postJson<ServiceChange>(path(DISPATCH_CONTROL_API.revokeChange, id), reason ? { reason } : {}, quiet),
      onSuccess: refreshAfterChange,
    },
    dispatchQueries,
  );
}

export const useMessages = () =>
  useQuery(
    {
      queryKey: ['dispatch', 'messages'],
      queryFn: ({ signal }) => getJson<MessageList>(DISPATCH_CONTROL_API.messages, { ...quiet, signal }),
      refetchInterval: 3_000,
      placeholderData: keepPreviousData,
    },
    dispatchQueries,
  );

export const useInbox = () =>
  useQuery(
    {
      queryKey: ['dispatch', 'inbox'],
      queryFn: ({ signal }) => getJson<InboxList>(DISPATCH_CONTROL_API.inbox, { ...quiet, signal }),
      refetchInterval: LIVE_MS,
      placeholderData: keepPreviousData,
    },
    dispatchQueries,
  );

export const useCanned = () =>
  useQuery(
    {
      queryKey: ['dispatch', 'canned'],
      queryFn: ({ signal }) => getJson<CannedList>(DISPATCH_CONTROL_API.canned, { ...quiet, signal }),
      staleTime: 60_000,
    },
    dispatchQueries,
  );

export function useSendMessage() {
  return useMutation(
    {
      mutationFn: (body: SendMessageBody) => postJson<DriverMessage>(DISPATCH_CONTROL_API.messages, body, quiet),
      onSuccess: () => dispatchQueries.invalidateQueries({ queryKey: ['dispatch', 'messages'] }),
    },
    dispatchQueries,
  );
}

export function useAddCanned() {
  return useMutation(
    {
      mutationFn: (text: string) => postJson<CannedText>(DISPATCH_CONTROL_API.canned, { text }, quiet),
      onSuccess: () => dispatchQueries.invalidateQueries({ queryKey: ['dispatch', 'canned'] }),
    },
    dispatchQueries,
  );
}

export function useDeleteCanned() {
  return useMutation(
    {
      mutationFn: async (id: number) =>
        (await request<CannedList>(path(DISPATCH_CONTROL_API.cannedItem, id), { ...quiet, method: 'DELETE' })).body,
      onSuccess: () => dispatchQueries.invalidateQueries({ queryKey: ['dispatch', 'canned'] }),
    },
    dispatchQueries,
  );
}
