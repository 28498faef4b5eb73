import type {
  ArchiveMonitoring,
  ArchiveMonitoringQuery,
  ArchivePlayback,
  ArchiveRequest,
  ArchiveRequestInput,
  VideoPage,
  VideoStreamAddress,
  VideoVehicle,
  VideoVehicleFilters,
  VideoVehicleList,
  VideoVehicleSearch,
} from '../../shared/video/api';
import { getJson, postJson, request } from '../providers/httpClient';

/** The console's calls of the video area (src/server/video/; the shapes: src/shared/video/api.ts). */

export const searchVehicles = (search: VideoVehicleSearch, signal?: AbortSignal) =>
  getJson<VideoVehicleList>('/api/v1/video/vehicles', { query: { ...search, recordCount: 200 }, signal });

export const vehicleFilters = () => getJson<VideoVehicleFilters>('/api/v1/video/vehicle-filters');

export const videoVehicle = (vehicleId: number, signal?: AbortSignal) =>
  getJson<VideoVehicle>(`/api/v1/video/vehicles/${vehicleId}`, { signal });

/** field-app.md section 7: the live view's request id, then each camera's address. */
export const startLive = (vehicleId: number) => postJson<number>('/api/v1/video/empty', { vehicleId });
export const streamAddress = (requestId: number, camera: number) =>
  getJson<VideoStreamAddress>(`/api/v1/video/online/${requestId}/${camera}`, { handleErrors: false });

export const createArchiveRequest = (input: ArchiveRequestInput) => postJson<{ id: number }>('/api/v1/video/requests', input);
export const cancelRequest = (id: number) => postJson(`/api/v1/video/requests/${id}/cancel`);
export const retryRequest = (id: number) => postJson(`/api/v1/video/requests/${id}/retry`);
export const deleteRequest = (id: number) => request(`/api/v1/video/requests/${id}`, { method: 'DELETE' });
export const archiveRequest = (id: number) => getJson<ArchiveRequest>(`/api/v1/video/requests/${id}`);
export const playArchive = (id: number, camera: number) => getJson<ArchivePlayback>(`/api/v1/video/requests/${id}/play/${camera}`);
export const archiveDownloadUrl = (id: number, camera: number) => `/api/v1/video/requests/${id}/download/${camera}`;

export const archiveMonitoring = (query: ArchiveMonitoringQuery & Pick<VideoPage, 'skipCount'>, signal?: AbortSignal) =>
  getJson<ArchiveMonitoring>('/api/v1/video/archive-monitoring', {
    query: { ...query, recordCount: 50 },
    signal,
  });
