import type { Option } from '../../shared/api';
import type { GroupFilter, GroupKind } from '../../shared/equipment/groups';
import type { ParameterValues, TerminalParameter } from '../../shared/equipment/parameters';
import type { RolloutState } from '../../shared/equipment/commandStatus';
import { getJson, postJson, request } from '../../web/providers/httpClient';

/** The console's calls of remote configuration (src/server/equipment/configurationRoutes.ts). */

export interface ConfigurationRow {
  id: number;
  name: string;
  version: number;
  parameters: ParameterValues;
  comment: string | null;
  created_by: string | null;
  created_at: string;
  locked_at: string | null;
  vehicles: number;
  rollouts: number;
}

export interface FleetShareRow {
  configuration_id: number | null;
  label: string;
  vehicles: number;
  share: number;
}

export interface GroupRow {
  id: number;
  name: string;
  kind: GroupKind;
  filter: GroupFilter | null;
  vehicles: number;
  last_rollout: { id: number; state: RolloutState; configuration: string } | null;
}

export interface GroupDetails extends Omit<GroupRow, 'vehicles' | 'last_rollout'> {
  count: number;
  vehicles: { id: number; depot_number: number; state_number: string | null; depot_name: string | null; configuration: string | null }[];
}

export interface GroupInput {
  name: string;
  kind: GroupKind;
  vehicles?: number[];
  filter?: GroupFilter;
}

export interface RolloutRow {
  id: number;
  state: RolloutState;
  phase: number;
  first_share: number;
  error_threshold: number;
  window_from: number | null;
  window_to: number | null;
  pause_reason: string | null;
  created_by: string | null;
  created_at: string;
  finished_at: string | null;
  configuration: string;
  counts: Record<string, number>;
  retrying: number;
}

export interface CommandRow {
  id: number;
  vehicle_id: number;
  depot_number: number | null;
  state_number: string | null;
  depot_name: string | null;
  phase: number;
  status: number;
  reason: string | null;
  attempts: number;
  retry_at: string | null;
  status_at: string;
}

export interface FilterOptions {
  agencies: Option[];
  depots: Option[];
  models: string[];
  terminalTypes: Option[];
  configurations: Option[];
}

export const terminalParameters = () => getJson<TerminalParameter[]>('/api/v1/mnt/parameters');
export const configurations = () => getJson<ConfigurationRow[]>('/api/v1/mnt/configurations');
export const fleetShare = () => getJson<FleetShareRow[]>('/api/v1/mnt/fleet-share');
export const createConfiguration = (body: { name: string; parameters: ParameterValues; comment?: string }) =>
  postJson<{ id: number }>('/api/v1/mnt/configurations', body);
export const updateConfiguration = (id: number, body: { parameters: ParameterValues; comment?: string }) =>
  request(`/api/v1/mnt/configurations/${id}`, { method: 'PUT', body });
export const newVersion = (id: number, body: { parameters: ParameterValues; comment?: string }) =>
  postJson<{ id: number; version: number }>(`/api/v1/mnt/configurations/${id}/versions`, body);
export const deleteConfiguration = (id: number) => request(`/api/v1/mnt/configurations/${id}`, { method: 'DELETE' });

export const groups = () => getJson<GroupRow[]>('/api/v1/mnt/groups');
export const group = (id: number) => getJson<GroupDetails>(`/api/v1/mnt/groups/${id}`);
export const createGroup = (body: GroupInput) => postJson<{ id: number }>('/api/v1/mnt/groups', body);
export const updateGroup = (id: number, body: GroupInput) => request(`/api/v1/mnt/groups/${id}`, { method: 'PUT', body });
export const deleteGroup = (id: number) => request(`/api/v1/mnt/groups/${id}`, { method: 'DELETE' });
export const previewGroup = (body: Omit<GroupInput, 'name'>) => postJson<{ count: number }>('/api/v1/mnt/groups/preview', body);
export const filterOptions = () => getJson<FilterOptions>('/api/v1/mnt/filter-options');
export const vehicleOptions = (signal?: AbortSignal) => getJson<Option[]>('/api/v1/mnt/vehicle-options', { signal });

export const groupRollouts = (groupId: number) => getJson<RolloutRow[]>(`/api/v1/mnt/groups/${groupId}/rollouts`);
export const startRollout = (body: {
  groupId: number;
  configurationId: number;
  firstShare: number;
  errorThreshold: number;
  windowFrom?: number | null;
  windowTo?: number | null;
}) => postJson<{ id: number; commands: number }>('/api/v1/mnt/rollouts', body);
export const rolloutCommands = (id: number, query: { status?: number; offset?: number; limit?: number }) =>
  getJson<{ total: number; list: CommandRow[] }>(`/api/v1/mnt/rollouts/${id}/commands`, { query });
export const changeRollout = (id: number, action: 'pause' | 'resume' | 'cancel') =>
  postJson<{ state: RolloutState }>(`/api/v1/mnt/rollouts/${id}/${action}`);
