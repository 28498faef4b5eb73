import type {
  CreateParams,
  CreateResult,
  DeleteManyParams,
  DeleteManyResult,
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
  UpdateManyResult,
  UpdateParams,
  UpdateResult,
} from 'react-admin';

/**
 * What a resource does differently from the generic REST convention; the rest falls through. Each method is
 * typed as react-admin calls it, with the records of the resource as plain RaRecords: an adapter is written
 * against this type, never cast into a DataProvider.
 */
export interface ResourceAdapter {
  getList?(resource: string, params: GetListParams): Promise<GetListResult<RaRecord>>;
  getOne?(resource: string, params: GetOneParams): Promise<GetOneResult<RaRecord>>;
  getMany?(resource: string, params: GetManyParams): Promise<GetManyResult<RaRecord>>;
  getManyReference?(resource: string, params: GetManyReferenceParams): Promise<GetManyReferenceResult<RaRecord>>;
  create?(resource: string, params: CreateParams): Promise<CreateResult<RaRecord>>;
  update?(resource: string, params: UpdateParams): Promise<UpdateResult<RaRecord>>;
  updateMany?(resource: string, params: UpdateManyParams): Promise<UpdateManyResult>;
  delete?(resource: string, params: DeleteParams): Promise<DeleteResult<RaRecord>>;
  deleteMany?(resource: string, params: DeleteManyParams): Promise<DeleteManyResult>;
}
