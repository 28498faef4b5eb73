import { useEffect, useState } from 'react';
import type { DepartmentMap } from '../../shared/bc/tasks';
import { bcApi } from './bcApi';

/** The department-control map's data (all departments for null, nothing for undefined), read again every `refreshMs` (controllers move). */
export function useDepartmentMap(departmentIds: number[] | null | undefined, refreshMs = 30_000): DepartmentMap | undefined {
  const [data, setData] = useState<DepartmentMap>();
  const key = departmentIds === undefined ? '' : departmentIds === null ? 'all' : departmentIds.join(',');
  useEffect(() => {
    if (!key) return undefined;
    const controller = new AbortController();
    const ids = key === 'all' ? null : key.split(',').filter(Boolean).map(Number);
    const load = () =>
      void bcApi
        .departmentMap(ids, controller.signal)
        .then(setData)
        .catch(() => undefined);
    load();
    const timer = window.setInterval(load, refreshMs);
    return () => {
      window.clearInterval(timer);
      controller.abort();
    };
  }, [key, refreshMs]);
  return data;
}
