import type { Option } from '../../shared/api';
import {
  EQUIPMENT_API,
  type CommandList,
  type CommandsQuery,
  type ConfigurationBody,
  type ConfigurationChange,
  type ConfigurationRow,
  type Created,
  type FilterOptions,
  type FleetShareRow,
  type GroupBody,
  type GroupCount,
  type GroupDetails,
  type GroupPreviewBody,
  type GroupRow,
  type RolloutAction,
  type RolloutBody,
  type RolloutChanged,
  type RolloutCreated,
  type RolloutRow,
  type VersionBody,
  type VersionCreated,
} from '../../shared/equipment/api';
import type { TerminalParameter } from '../../shared/equipment/parameters';
import { getJson, postJson, request } from '../../web/providers/httpClient';

/** The console's calls of remote configuration (the contract: src/shared/equipment/api.ts). */
const path = (template: string, id: number) => template.replace(':id', String(id));

export const terminalParameters = () => getJson<TerminalParameter[]>(EQUIPMENT_API.parameters);
export const configurations = () => getJson<ConfigurationRow[]>(EQUIPMENT_API.configurations);
export const fleetShare = () => getJson<FleetShareRow[]>(EQUIPMENT_API.fleetShare);
export const createConfiguration = (body: ConfigurationBody) => postJson<VersionCreated>(EQUIPMENT_API.configurations, body);
export const updateConfiguration = (id: number, body: ConfigurationChange) =>
  request(path(EQUIPMENT_API.configuration, id), { method: 'PUT', body });
export const newVersion = (id: number, body: VersionBody) => postJson<VersionCreated>(path(EQUIPMENT_API.versions, id), body);
export const deleteConfiguration = (id: number) => request(path(EQUIPMENT_API.configuration, id), { method: 'DELETE' });

export const groups = () => getJson<GroupRow[]>(EQUIPMENT_API.groups);
export const group = (id: number) => getJson<GroupDetails>(path(EQUIPMENT_API.group, id));
export const createGroup = (body: GroupBody) => postJson<Created>(EQUIPMENT_API.groups, body);
export const updateGroup = (id: number, body: GroupBody) => request(path(EQUIPMENT_API.group, id), { method: 'PUT', body });
export const deleteGroup = (id: number) => request(path(EQUIPMENT_API.group, id), { method: 'DELETE' });
export const previewGroup = (body: GroupPreviewBody) => postJson<GroupCount>(EQUIPMENT_API.groupPreview, body);
export const filterOptions = () => getJson<FilterOptions>(EQUIPMENT_API.filterOptions);
export const vehicleOptions = (signal?: AbortSignal) => getJson<Option[]>(EQUIPMENT_API.vehicleOptions, { signal });

export const groupRollouts = (groupId: number) => getJson<RolloutRow[]>(path(EQUIPMENT_API.groupRollouts, groupId));
export const startRollout = (body: RolloutBody) => postJson<RolloutCreated>(EQUIPMENT_API.rollouts, body);
export const rolloutCommands = (id: number, query: CommandsQuery) =>
  getJson<CommandList>(path(EQUIPMENT_API.rolloutCommands, id), { query });
export const changeRollout = (id: number, action: RolloutAction) =>
  postJson<RolloutChanged>(path(EQUIPMENT_API.rolloutAction, id).replace(':action', action));
