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

/**
 * Keeps one geo stream open while `q` is not null: the first `q` opens it, later ones are sent as
 * subscription changes; `onPoints` receives each picture. Cancelled on unmount.
 */
export function useGeoStream(q: string | null, onPoints: (time: string, items: MapCluster[]) => void): { status: GeoStreamStatus; error: string } {
  const [state, setState] = useState<{ status: GeoStreamStatus; error: string }>({ status: 'stopped', error: '' });
  const handler = useRef(onPoints);
  handler.current = onPoints;
  const client = useRef<GeoStreamClient | null>(null);
  const enabled = q !== null;

  useEffect(() => {
    if (!enabled) return;
    const stream = new GeoStreamClient({
      onPoints: (time, items) => handler.current(time, items),
      onStatus: (status, error = '') => setState((s) => (s.status === status && s.error === error ? s : { status, error })),
      onUnauthorized: () => {
        clearSession();
        navigateTo('/', { replace: true });
      },
      headers: streamHeaders,
      put,
    });
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
