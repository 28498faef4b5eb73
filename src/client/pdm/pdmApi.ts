import { filterQuery, type ReportFilterValues } from '../../shared/reports/filters';
import { PDM_API, type ImportKind, type PdmNode, type PdmTree } from '../../shared/pdm/model';
import { getJson, postJson, request } from '../../web/providers/httpClient';

const query = (filters: ReportFilterValues) => new URLSearchParams(filterQuery(filters)).toString();

export interface TreeDetail {
  id: number;
  name: string;
  model: string | null;
  nodes: PdmNode[];
  vehicles: { id: number; depot_number: number; state_number: string | null }[];
}
export interface ChartSeries {
  key: string;
  label: string;
  vehicle_id: number;
  node_id: number;
  unit: string | null;
  normal_min: number | null;
  normal_max: number | null;
}
export interface ChartData {
  step: string;
  series: ChartSeries[];
  points: ({ t: number } & Record<string, number | null>)[];
}
export interface HeatData {
  points: [number, number, number][];
  max: number;
  cells: { vehicle_id: number; depot_number: number; period: string; value: number | null; fault_share: number }[];
}
export interface TimelineNode {
  node_id: number;
  node_path: string;
  segments: { from: string; to: string; state: string }[];
}
export interface ImportResult {
  id: number;
  dry_run: boolean;
  rows: number;
  added: number;
  skipped: number;
  refused: number;
  errors: { line: number; column: string; message: string }[];
  failed: boolean;
}
export interface ImportRow {
  id: number;
  kind: ImportKind;
  file_name: string;
  username: string | null;
  at: string;
  dry_run: boolean;
  rows: number;
  added: number;
  skipped: number;
  refused: number;
  failed: boolean;
}

export const fetchTrees = () => getJson<{ list: PdmTree[] }>(`${PDM_API}/trees`);
export const fetchTree = (id: number) => getJson<TreeDetail>(`${PDM_API}/trees/${id}`);
export const createTree = (name: string, model: string | null) => postJson<{ id: number }>(`${PDM_API}/trees`, { name, model });
export const createNode = (tree: number, body: Partial<PdmNode> & { name: string; kind: string }) =>
  postJson<PdmNode>(`${PDM_API}/trees/${tree}/nodes`, body);
export const updateNode = async (id: number, body: Partial<PdmNode>) =>
  (await request<PdmNode>(`${PDM_API}/nodes/${id}`, { method: 'PUT', body })).body;
export const moveNodes = (ids: number[], parentId: number | null, position?: number) =>
  postJson(`${PDM_API}/nodes/move`, { ids, parent_id: parentId, position });
export const deleteNodes = (ids: number[]) => postJson<{ deleted: number[] }>(`${PDM_API}/nodes/delete`, { ids });
export const assignVehicles = async (tree: number, body: { vehicles?: number[]; model?: boolean; depot_numbers?: number[] }) =>
  (await request<{ vehicles: number[] }>(`${PDM_API}/trees/${tree}/vehicles`, { method: 'PUT', body })).body;

export const fetchChart = (filters: ReportFilterValues, signal?: AbortSignal) =>
  getJson<ChartData>(`${PDM_API}/chart?${query(filters)}`, { signal });
export const fetchHeat = (filters: ReportFilterValues, signal?: AbortSignal) =>
  getJson<HeatData>(`${PDM_API}/heat?${query(filters)}`, { signal });
export const fetchTimeline = (vehicle: number, from: string, to: string, signal?: AbortSignal) =>
  getJson<{ list: TimelineNode[] }>(`${PDM_API}/timeline?${new URLSearchParams({ vehicle: String(vehicle), from, to })}`, { signal });

export const runImport = (body: {
  kind: ImportKind;
  file_name: string;
  content: string;
  mapping: Record<string, string>;
  dry_run: boolean;
}) => postJson<ImportResult>(`${PDM_API}/imports`, body);
export const fetchImports = () => getJson<{ list: ImportRow[]; count: number }>(`${PDM_API}/imports?recordCount=30`);
export const failedRowsUrl = (id: number) => `${PDM_API}/imports/${id}/failed`;
