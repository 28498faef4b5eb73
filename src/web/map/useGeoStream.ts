import { useEffect, useRef, useState } from 'react';
import { HEADERS } from '../../shared/constants';
import type { MapCluster } from '../../shared/map';
import { request, timezoneOffsetMinutes } from '../providers/httpClient';
import { navigateTo } from '../routing/navigationBridge';
import { clearSession, readToken } from '../stores/sessionStore';
import { GeoStreamClient, type GeoStreamStatus } from './geoStreamClient';

/** The headers the HTTP client sends with every call (token, timezone offset, page id). */
function streamHeaders(): Record<string, string> {
  const token = readToken();
  return {
    ...(token ? { [HEADERS.token]: `Bearer ${token}` } : {}),
    [HEADERS.timezoneOffset]: String(timezoneOffsetMinutes()),
    [HEADERS.pageId]: window.location.pathname,
  };
}

const put = (url: string, body: { q: string }) => request(url, { method: 'PUT', body, handleErrors: false });

export interface GeoStreamHandlers {
  onPoints: (time: string, items: MapCluster[]) => void;
  onStatus: (status: GeoStreamStatus, error?: string) => void;
}

/** A geo stream client with the HTTP client's headers; a 401 ends the session. */
export function newGeoStreamClient(handlers: GeoStreamHandlers): GeoStreamClient {
  return new GeoStreamClient({
    ...handlers,
    onUnauthorized: () => {
      clearSession();
      navigateTo('/', { replace: true });
    },
    headers: streamHeaders,
    put,
  });
}

/**
 * A stream opened before its map (the field app opens it with the login's answer, while the map's code runs):
 * the next map to start a stream takes it over, with the last picture and status it received. Not taken over
 * within EARLY_STREAM_MS (the user went elsewhere), it is closed.
 */
export const EARLY_STREAM_MS = 15_000;
let early: {
  client: GeoStreamClient;
  handlers: GeoStreamHandlers | null;
  points: [string, MapCluster[]] | null;
  status: [GeoStreamStatus, string | undefined] | null;
} | null = null;

export function openEarlyGeoStream(q: string): void {
  early?.client.stop();
  const opened: NonNullable<typeof early> = {
    handlers: null,
    points: null,
    status: null,
    client: newGeoStreamClient({
      onPoints: (time, items) => (opened.handlers ? opened.handlers.onPoints(time, items) : (opened.points = [time, items])),
      onStatus: (status, error) => (opened.handlers ? opened.handlers.onStatus(status, error) : (opened.status = [status, error])),
    }),
  };
  early = opened;
  opened.client.start(q);
  setTimeout(() => {
    if (early === opened) {
      early = null;
      opened.client.stop();
    }
  }, EARLY_STREAM_MS);
}

/** The early stream, now the caller's (its picture so far handed over at once), or null. */
export function adoptEarlyGeoStream(handlers: GeoStreamHandlers): GeoStreamClient | null {
  const taken = early;
  if (!taken) return null;
  early = null;
  taken.handlers = handlers;
  if (taken.status) handlers.onStatus(...taken.status);
  if (taken.points) handlers.onPoints(...taken.points);
  return taken.client;
}

/**
 * Keeps one geo stream open while `q` is not null: the first `q` opens it (or takes over the early stream,
 * which then moves to `q`), later ones are sent as subscription changes; `onPoints` receives each picture.
 * Cancelled on unmount.
 */
export function useGeoStream(
  q: string | null,
  onPoints: (time: string, items: MapCluster[]) => void,
): { status: GeoStreamStatus; error: string } {
  const [state, setState] = useState<{ status: GeoStreamStatus; error: string }>({ status: 'stopped', error: '' });
  const handler = useRef(onPoints);
  handler.current = onPoints;
  const client = useRef<GeoStreamClient | null>(null);
  const enabled = q !== null;

  useEffect(() => {
    if (!enabled) return;
    const handlers: GeoStreamHandlers = {
      onPoints: (time, items) => handler.current(time, items),
      onStatus: (status, error = '') => setState((s) => (s.status === status && s.error === error ? s : { status, error })),
    };
    const stream = adoptEarlyGeoStream(handlers) ?? newGeoStreamClient(handlers);
    client.current = stream;
    return () => {
      client.current = null;
      stream.stop();
    };
  }, [enabled]);

  useEffect(() => {
    if (q === null || !client.current) return;
    client.current.start(q);
    client.current.update(q);
  }, [q]);

  return state;
}
