import type { BcOptions } from '../../shared/bc/tasks';
import { bcApi } from '../../web/bc/bcApi';
import { useApiQuery } from '../../web/providers/queries';

/** The order form's lists (departments, regions, work graphics, controllers, routes), read once per screen. */
export function useBcOptions(): BcOptions | undefined {
  return useApiQuery(['bc', 'options'], (signal) => bcApi.options(signal)).data;
}
