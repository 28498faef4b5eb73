import type { ModuleId } from '../../shared/modules';
import { getJson } from '../../web/providers/httpClient';
import { useApiQuery } from '../../web/providers/queries';

/** GET /api/v1/about (public): the build, the modules with their state, the manuals. */
export interface AboutInfo {
  build: { version: string; date: string };
  modules: { id: ModuleId; enabled: boolean }[];
  manuals: { id: string; version: string; enabled: boolean }[];
}

export function useAbout(): { about: AboutInfo | null; failed: boolean } {
  const query = useApiQuery(['about'], (signal) => getJson<AboutInfo>('/api/v1/about', { signal }));
  return { about: query.data ?? null, failed: query.isError };
}
