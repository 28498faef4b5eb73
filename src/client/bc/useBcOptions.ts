import { useEffect, useState } from 'react';
import type { BcOptions } from '../../shared/bc/tasks';
import { bcApi } from '../../web/bc/bcApi';

/** The order form's lists (departments, regions, work graphics, controllers, routes), read once per screen. */
export function useBcOptions(): BcOptions | undefined {
  const [options, setOptions] = useState<BcOptions>();
  useEffect(() => {
    const controller = new AbortController();
    void bcApi
      .options(controller.signal)
      .then(setOptions)
      .catch(() => undefined);
    return () => controller.abort();
  }, []);
  return options;
}
