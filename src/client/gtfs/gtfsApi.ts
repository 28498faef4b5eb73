import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useGetList, useGetOne } from 'react-admin';
import { GTFS_API, type ImportRun } from '../../shared/gtfs/api';
import type { GtfsFileCounts, GtfsNotice } from '../../shared/gtfs/notices';
import { uploadFile } from '../handbooks/uploadFile';
import { HttpError, handleFailure, postJson } from '../../web/providers/httpClient';

/** The runs as a react-admin resource: the REST provider reads /api/v1/<resource> and /api/v1/<resource>/{id}. */
export const RUNS = GTFS_API.imports.replace(/^\/api\/v1\//, '');

/** How often a running import is asked for its stage and progress. */
const POLL_MS = 700;

const isRunning = (run: ImportRun | undefined) => run?.status === 'running';

/** One import, polled while it runs. */
export function useImportRun(id: number | null) {
  return useGetOne<ImportRun>(
    RUNS,
    { id: id ?? 0 },
    {
      enabled: id !== null,
      refetchInterval: (query) => (isRunning(query.state.data) ? POLL_MS : false),
    },
  );
}

/** The import history (the server keeps the last 100), polled while one of them runs. */
export function useImportHistory() {
  return useGetList<ImportRun>(
    RUNS,
    { pagination: { page: 1, perPage: 100 }, sort: { field: 'id', order: 'DESC' } },
    {
      refetchInterval: (query) => (query.state.data?.data.some(isRunning) ? POLL_MS * 2 : false),
    },
  );
}

/**
 * The upload goes outside the http client: a lost session, a missing right or no answer lead where any request's
 * would; a refusal (another import running, too large a file) is said in place by the upload.
 */
const NAVIGATING = new Set([0, 401, 403]);

/** The upload of a feed with its progress (XMLHttpRequest): the answer is the run's id, the import goes on in the background. */
export function useUploadFeed(onProgress: (percent: number) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ file, signal }: { file: File; signal: AbortSignal }) =>
      uploadFile<{ id: number }>(`${GTFS_API.imports}?file=${encodeURIComponent(file.name)}`, file, 'application/zip', {
        signal,
        onProgress: (loaded, total) => onProgress(total ? Math.round((loaded / total) * 100) : 0),
      }),
    onError: (error) => {
      if (error instanceof HttpError && NAVIGATING.has(error.status)) handleFailure(error);
    },
    onSettled: () => client.invalidateQueries({ queryKey: [RUNS] }),
  });
}

/** Stops a running import: the server rolls it back and the run ends as cancelled. */
export function useCancelImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => postJson<{ cancelled: boolean }>(GTFS_API.cancel.replace(':id', String(id))),
    onSettled: () => client.invalidateQueries({ queryKey: [RUNS] }),
  });
}

/** A run's report as the screen reads it: a cancelled or interrupted run has no file counts or notices. */
export interface RunReport {
  files: GtfsFileCounts[];
  notices: GtfsNotice[];
  written?: Record<string, number>;
  timezone?: { feed: string; feedOffsetMinutes: number; operatorOffsetMinutes: number };
  message?: string;
}

export function reportOf(run: ImportRun): RunReport {
  const report = run.report;
  return {
    files: report?.files ?? [],
    notices: (report?.notices ?? []) as GtfsNotice[],
    written: report?.written,
    timezone: report?.timezone,
    message: report?.message,
  };
}
