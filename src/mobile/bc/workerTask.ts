import { useEffect } from 'react';
import type { ControllerTask, TaskResultResponse, TaskStatus } from '../../shared/bc/tasks';
import { BC_API } from '../../shared/bc/tasks';
import { getJson } from '../../web/providers/httpClient';
import { createStore, useStoreValue } from '../../web/stores/createStore';
import { fieldDb } from './fieldDb';

/**
 * The controller's order of the day (GET controllertask/worker): the "selected task" of the ticket-control
 * screens. Read from the server when it answers, otherwise from the copy kept on the phone.
 */
export interface WorkerTaskState {
  loaded: boolean;
  task: ControllerTask | null;
  /** Read from the phone's copy: the server did not answer. */
  offline: boolean;
}

const store = createStore<WorkerTaskState>({ loaded: false, task: null, offline: false });

export async function refreshWorkerTask(userId: number): Promise<void> {
  try {
    const task = await getJson<ControllerTask | null>(BC_API.workerTask, { handleErrors: false });
    store.set({ loaded: true, task, offline: false });
    const cached = await fieldDb.work.get(userId);
    await fieldDb.work.put({ userId, task, result: cached?.task?.id === task?.id ? cached?.result : undefined, at: Date.now() });
  } catch {
    const cached = await fieldDb.work.get(userId);
    const task = cached?.task ?? null;
    // a status still waiting to be sent is the order's status as far as the phone knows
    const queued = task
      ? (await fieldDb.outbox.where('taskId').equals(task.id).sortBy('seq')).filter((item) => item.kind === 'status').pop()
      : undefined;
    store.set({ loaded: true, task: task && queued?.kind === 'status' ? { ...task, status: queued.status } : task, offline: true });
  }
}

/** The order's status as the phone knows it (a status queued but not yet sent counts). */
export function setLocalStatus(status: TaskStatus): void {
  store.set((state) => (state.task ? { ...state, task: { ...state.task, status } } : state));
}

export function useWorkerTask(userId: number | undefined): WorkerTaskState {
  useEffect(() => {
    if (userId !== undefined) void refreshWorkerTask(userId);
  }, [userId]);
  return useStoreValue(store);
}

/** The order's report as loaded (GET controllertask/result/{id}), or the phone's copy when offline; null without either. */
export async function loadTaskResult(userId: number, taskId: number, signal?: AbortSignal): Promise<TaskResultResponse | null> {
  try {
    const result = await getJson<TaskResultResponse>(BC_API.result(taskId), { handleErrors: false, signal });
    const cached = await fieldDb.work.get(userId);
    if (cached) await fieldDb.work.put({ ...cached, result });
    return result;
  } catch (error) {
    // nobody waits for it any more: the phone's copy is not wanted either
    if (signal?.aborted) throw error;
    const cached = await fieldDb.work.get(userId);
    return cached?.result?.task.id === taskId ? cached.result : null;
  }
}
