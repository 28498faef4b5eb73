import type {
  CreateParams,
  CreateResult,
  DataProvider,
  DeleteManyParams,
  DeleteParams,
  DeleteResult,
  GetListParams,
  GetListResult,
  GetManyParams,
  GetManyReferenceParams,
  GetManyReferenceResult,
  GetManyResult,
  GetOneParams,
  GetOneResult,
  RaRecord,
  UpdateManyParams,
  UpdateParams,
  UpdateResult,
} from 'react-admin';
import type { ResourceAdapter } from './adapter';
import { TASKS_RESOURCE, bcTasksAdapter } from './bcTasks';
import { HANDBOOK_RESOURCE_PREFIX, handbooksAdapter } from './handbooks';
import { isReportResource, reportsAdapter } from './reports';
import { rolesAdapter } from './roles';
import { usersAdapter } from './users';

export type { ResourceAdapter } from './adapter';

/** The adapter of a resource: by its name, a declared report's path, or a prefix ('handbooks/…'). */
export function adapterFor(resource: string): ResourceAdapter | undefined {
  if (resource === 'users') return usersAdapter;
  if (resource === 'roles') return rolesAdapter;
  if (resource === TASKS_RESOURCE) return bcTasksAdapter;
  if (isReportResource(resource)) return reportsAdapter;
  if (resource.startsWith(HANDBOOK_RESOURCE_PREFIX)) return handbooksAdapter;
  return undefined;
}

/**
 * The generic provider with each resource's adapter in front of it. react-admin's methods are generic in
 * the record type, which the server decides: the adapter's RaRecords are handed back as the caller's type.
 */
export function withResourceAdapters(
  base: DataProvider,
  find: (resource: string) => ResourceAdapter | undefined = adapterFor,
): DataProvider {
  return {
    ...base,
    getList: <R extends RaRecord>(resource: string, params: GetListParams) =>
      (find(resource)?.getList?.(resource, params) ?? base.getList<R>(resource, params)) as Promise<GetListResult<R>>,
    getOne: <R extends RaRecord>(resource: string, params: GetOneParams<R>) =>
      (find(resource)?.getOne?.(resource, params) ?? base.getOne<R>(resource, params)) as Promise<GetOneResult<R>>,
    getMany: <R extends RaRecord>(resource: string, params: GetManyParams<R>) =>
      (find(resource)?.getMany?.(resource, params) ?? base.getMany<R>(resource, params)) as Promise<GetManyResult<R>>,
    getManyReference: <R extends RaRecord>(resource: string, params: GetManyReferenceParams) =>
      (find(resource)?.getManyReference?.(resource, params) ?? base.getManyReference<R>(resource, params)) as Promise<
        GetManyReferenceResult<R>
      >,
    create: <R extends Omit<RaRecord, 'id'>, Result extends RaRecord = R & { id: RaRecord['id'] }>(
      resource: string,
      params: CreateParams,
    ) => (find(resource)?.create?.(resource, params) ?? base.create<R, Result>(resource, params)) as Promise<CreateResult<Result>>,
    update: <R extends RaRecord>(resource: string, params: UpdateParams) =>
      (find(resource)?.update?.(resource, params) ?? base.update<R>(resource, params)) as Promise<UpdateResult<R>>,
    updateMany: (resource: string, params: UpdateManyParams) =>
      find(resource)?.updateMany?.(resource, params) ?? base.updateMany(resource, params),
    delete: <R extends RaRecord>(resource: string, params: DeleteParams<R>) =>
      (find(resource)?.delete?.(resource, params) ?? base.delete<R>(resource, params)) as Promise<DeleteResult<R>>,
    deleteMany: <R extends RaRecord>(resource: string, params: DeleteManyParams<R>) =>
      find(resource)?.deleteMany?.(resource, params) ?? base.deleteMany<R>(resource, params),
  };
}
