import { useEffect, useState } from 'react';
import type { ModuleId } from '../../shared/modules';
import { getJson, isAbortError } from '../../web/providers/httpClient';

/** GET /api/v1/about (public): the build, the modules with their state, the manuals. */
export interface AboutInfo {
  build: { version: string; date: string };
  modules: { id: ModuleId; enabled: boolean }[];
  manuals: { id: string; version: string; enabled: boolean }[];
}

export function useAbout(): { about: AboutInfo | null; failed: boolean } {
  const [about, setAbout] = useState<AboutInfo | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    getJson<AboutInfo>('/api/v1/about', { signal: controller.signal })
      .then(setAbout)
      .catch((error: unknown) => !isAbortError(error) && setFailed(true));
    return () => controller.abort();
  }, []);
  return { about, failed };
}
