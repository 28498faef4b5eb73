import type { DepartmentMap } from '../../shared/bc/tasks';
import { useApiQuery } from '../providers/queries';
import { bcApi } from './bcApi';

/** The department-control map's data (all departments for null, nothing for undefined), read again every `refreshMs` (controllers move). */
export function useDepartmentMap(departmentIds: number[] | null | undefined, refreshMs = 30_000): DepartmentMap | undefined {
  const key = departmentIds === undefined ? '' : departmentIds === null ? 'all' : departmentIds.join(',');
  const ids = key === 'all' ? null : key.split(',').filter(Boolean).map(Number);
  const { data } = useApiQuery(['bc', 'department-map', key], (signal) => bcApi.departmentMap(ids, signal), {
    enabled: key !== '',
    refetchInterval: refreshMs,
    keepPrevious: true,
  });
  return data;
}
