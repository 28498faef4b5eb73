import type { FastifyInstance } from 'fastify';
import type { RequestRow } from './archiveWorker';
import { demoCoverage } from './demoArchive';
import type { ClockPiece } from './demoMedia';

/** A request as its recording's playback and download read it (the worker's row, without its progress). */
export type ArchiveRequestRow = Pick<
  RequestRow,
  'id' | 'user_id' | 'vehicle_id' | 'dvr_id' | 'cameras' | 'period_from' | 'period_to' | 'status_at' | 'plan'
> & { status: number; viewed_at: Date | string | null };

export async function loadArchiveRequest(app: FastifyInstance, id: number): Promise<ArchiveRequestRow | undefined> {
  const [row] = await app.db.query<ArchiveRequestRow>(
    'select id, user_id, vehicle_id, dvr_id, cameras, period_from, period_to, status, status_at, viewed_at, plan from app.video_request where id = $1',
    [id],
  );
  return row;
}

/**
 * The pieces of a demo recording: what the recorder held for the period when the download finished (the
 * moment of "performed"), so the recording stays the same however long it is kept.
 */
export function archivePieces(app: FastifyInstance, row: ArchiveRequestRow, camera: number): ClockPiece[] {
  return demoCoverage(
    row.dvr_id ?? 0,
    camera,
    new Date(row.period_from).getTime(),
    new Date(row.period_to).getTime(),
    new Date(row.status_at).getTime(),
    app.video.config.demoArchiveHours,
  );
}
