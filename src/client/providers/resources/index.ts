import type { DataProvider } from 'react-admin';
import { HANDBOOK_RESOURCE_PREFIX, handbooksAdapter } from './handbooks';
import { isReportResource, reportsAdapter } from './reports';
import { rolesAdapter } from './roles';
import { usersAdapter } from './users';

/** What a resource does differently from the generic REST convention; the rest falls through. */
export type ResourceAdapter = Partial<DataProvider>;

const METHODS = ['getList', 'getOne', 'getMany', 'getManyReference', 'create', 'update', 'updateMany', 'delete', 'deleteMany'] as const;
type Method = (typeof METHODS)[number];
type Call = (resource: string, params: unknown) => Promise<unknown>;

/** The adapter of a resource: by its name, a declared report's path, or a prefix ('handbooks/…'). */
export function adapterFor(resource: string): ResourceAdapter | undefined {
  if (resource === 'users') return usersAdapter;
  if (resource === 'roles') return rolesAdapter;
  if (isReportResource(resource)) return reportsAdapter;
  if (resource.startsWith(HANDBOOK_RESOURCE_PREFIX)) return handbooksAdapter;
  return undefined;
}

/** The generic provider with each resource's adapter in front of it. */
export function withResourceAdapters(base: DataProvider, find: (resource: string) => ResourceAdapter | undefined = adapterFor): DataProvider {
  const composed: DataProvider = { ...base };
  const table = composed as unknown as Record<Method, Call>;
  const fallback = base as unknown as Record<Method, Call>;
  for (const method of METHODS) {
    table[method] = (resource, params) => {
      const own = find(resource)?.[method] as Call | undefined;
      return (own ?? fallback[method])(resource, params);
    };
  }
  return composed;
}
