import type { ListResponse } from '../../shared/api';
import {
  BC_API,
  type BcOptions,
  type ControllerTask,
  type DepartmentMap,
  type RegionDetails,
  type RotationSuggestion,
  type TaskBody,
  type TaskResultResponse,
} from '../../shared/bc/tasks';
import { getJson, postJson, request } from '../providers/httpClient';

/** The ticket-control calls the console and the field app make (paths and shapes: src/shared/bc/tasks.ts). */

export interface TaskQuery {
  from?: string;
  to?: string;
  department?: number[];
  status?: string[];
  worker?: number;
  sortField?: string;
  sortOrder?: 'ASC' | 'DESC';
  skipCount?: number;
  recordCount?: number;
}

const listQuery = (q: TaskQuery) => ({
  ...q,
  department: q.department?.length ? q.department.join(',') : undefined,
  status: q.status?.length ? q.status.join(',') : undefined,
});

export const bcApi = {
  options: (signal?: AbortSignal) => getJson<BcOptions>(BC_API.options, { signal }),
  tasks: (q: TaskQuery, signal?: AbortSignal) => getJson<ListResponse<ControllerTask>>(BC_API.tasks, { query: listQuery(q), signal }),
  task: (id: number, signal?: AbortSignal) => getJson<ControllerTask>(BC_API.task(id), { signal }),
  create: (body: TaskBody) => postJson<ControllerTask>(BC_API.tasks, body),
  update: async (id: number, body: TaskBody) => (await request<ControllerTask>(BC_API.task(id), { method: 'PUT', body })).body,
  remove: async (id: number) => {
    await request(BC_API.task(id), { method: 'DELETE' });
  },
  copyDay: (from: string, to: string[], departmentId: number) =>
    postJson<{ created: number }>(BC_API.copyDay, { from, to, department_id: departmentId }),
  rotation: (departmentId: number, date: string, graphicTypeId?: number) =>
    getJson<{ main: RotationSuggestion[]; incidental: RotationSuggestion[] }>(BC_API.rotation, {
      query: { department_id: departmentId, date, graphic_type_id: graphicTypeId },
    }),
  departmentMap: (departmentIds: number[] | null, signal?: AbortSignal) =>
    postJson<DepartmentMap>(BC_API.departmentMap, { department_ids: departmentIds }, { signal }),
  region: (id: number, signal?: AbortSignal) => getJson<RegionDetails>(BC_API.region(id), { signal }),
  workerTask: (signal?: AbortSignal) => getJson<ControllerTask | null>(BC_API.workerTask, { signal }),
  result: (taskId: number, signal?: AbortSignal) => getJson<TaskResultResponse>(BC_API.result(taskId), { signal }),
};
