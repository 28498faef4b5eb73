import { useEffect } from 'react';
import { postJson } from '../../web/providers/httpClient';
import { useCurrentUser } from '../../web/stores/sessionStore';
import { useWorkerTask } from './workerTask';

/**
 * While the controller's order is in work, the phone's position goes to api/v1/auth/coord (with its accuracy)
 * every /system/bc coordIntervalSeconds, so the desktop's department-control map sees the controllers.
 * Renders nothing; positions that fail to send are simply superseded by the next one.
 */
export function PositionReporter() {
  const user = useCurrentUser();
  const { task } = useWorkerTask(user?.id);
  const inWork = task?.status === 'in_work';
  const intervalMs = (user?.settings.bc?.coordIntervalSeconds ?? 30) * 1000;
  useEffect(() => {
    if (!inWork || !('geolocation' in navigator)) return undefined;
    let last: GeolocationPosition | null = null;
    let sentAt = 0;
    const post = () => {
      if (!last) return;
      sentAt = Date.now();
      const { latitude: lat, longitude: lon, accuracy } = last.coords;
      void postJson('/api/v1/auth/coord', { lat, lon, accuracy: Math.min(accuracy, 100_000) }, { handleErrors: false }).catch(
        () => undefined,
      );
    };
    const watch = navigator.geolocation.watchPosition(
      (position) => {
        last = position;
        if (Date.now() - sentAt >= intervalMs) post();
      },
      () => undefined,
      { enableHighAccuracy: true, maximumAge: 10_000 },
    );
    const timer = window.setInterval(post, intervalMs);
    return () => {
      navigator.geolocation.clearWatch(watch);
      window.clearInterval(timer);
    };
  }, [inWork, intervalMs]);
  return null;
}
