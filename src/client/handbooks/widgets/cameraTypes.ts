import type { ListRequest, ListResponse } from '../../../shared/handbooks/api';
import { postJson } from '../../../web/providers/httpClient';

/** A camera type (DevCamera_Type): `ip` is its key, sorted by index (spec section 3). */
export interface CameraType {
  id: number;
  index: number;
  title: string;
}

export function toCameraTypes(list: ListResponse['list']): CameraType[] {
  return list
    .map((row) => ({ id: Number(row.ip), index: Number(row.index), title: String(row.title ?? '') }))
    .filter((type) => Number.isFinite(type.id))
    .sort((a, b) => a.index - b.index || a.id - b.id);
}

/** Every camera type, POST /api/table/list { config: { type: 'cameratype' }, perPage: 1000 }. */
export async function fetchCameraTypes(signal?: AbortSignal): Promise<CameraType[]> {
  const body: ListRequest = { config: { type: 'cameratype' }, perPage: 1000, sort: { field: 'index', order: 'ASC' } };
  return toCameraTypes((await postJson<ListResponse>('/api/table/list', body, { signal })).list);
}

/** The form value as camera type ids (numbers, each once), whatever the record held. */
export function cameraIds(value: unknown): number[] {
  if (!Array.isArray(value)) return [];
  return [...new Set(value.map(Number).filter(Number.isInteger))];
}

/** Chosen ids in the order of the types' index; ids of no known type keep their place at the end. */
export function orderByIndex(ids: readonly number[], types: readonly CameraType[]): number[] {
  const position = new Map(types.map((type, i) => [type.id, i]));
  return [...ids].sort((a, b) => (position.get(a) ?? Infinity) - (position.get(b) ?? Infinity) || a - b);
}

export function toggleCamera(ids: readonly number[], id: number): number[] {
  return ids.includes(id) ? ids.filter((item) => item !== id) : [...ids, id];
}
