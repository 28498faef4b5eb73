import type { Queryable } from '../db/types';
import type { NotificationType, Severity } from './notificationTypes';

export interface NotificationInput {
  type: NotificationType;
  severity?: Severity;
  title: string;
  body?: string;
  /** A console path ('/video/myrequests?...'); anything else is dropped, so a notification cannot link off-site. */
  link?: string;
  /** One recipient; absent: everyone allowed to see the type. */
  userId?: number;
}

const TITLE_MAX = 200;
const BODY_MAX = 2000;

/**
 * Raises bell notifications (spec sections 3 and 7). Other areas call it when something needs an operator's
 * eye: an equipment fault, a high-grade ADAS incident, a finished video request. Titles are Russian.
 */
export class Notifier {
  constructor(private readonly db: Queryable) {}

  /** Appends one notification and returns its id. */
  async notify(input: NotificationInput, tx: Queryable = this.db): Promise<number> {
    const title = input.title.trim().slice(0, TITLE_MAX);
    if (!title) throw new Error('a notification needs a title');
    const link = input.link && /^\/(?!\/)/.test(input.link) ? input.link.slice(0, 500) : null;
    const [row] = await tx.query<{ id: number }>(
      `insert into app.notification (type, severity, title, body, link, user_id)
       values ($1, $2, $3, $4, $5, $6) returning id::float8 as id`,
      [input.type, input.severity ?? 'info', title, (input.body ?? '').slice(0, BODY_MAX), link, input.userId ?? null],
    );
    return row.id;
  }

  equipmentFault(
    fault: { vehicleId: number; depotNumber?: number | null; equipment: string; detail?: string },
    tx?: Queryable,
  ): Promise<number> {
    return this.notify(
      {
        type: 'equipment_fault',
        severity: 'warning',
        title: `Неисправность оборудования: ${fault.equipment}, ТС ${fault.depotNumber ?? fault.vehicleId}`,
        body: fault.detail,
        link: `/vehicle-diagnostic?vehicle=${fault.vehicleId}`,
      },
      tx,
    );
  }

  adasIncident(
    incident: { eventId: number; depotNumber?: number | null; incidentType: number; incidentName?: string | null; grade: number },
    tx?: Queryable,
  ): Promise<number> {
    const name = incident.incidentName ?? `Событие ИСПВ ${incident.incidentType}`;
    return this.notify(
      {
        type: 'adas_incident',
        severity: 'critical',
        title: `Инцидент ИСПВ (степень ${incident.grade}): ${name}${incident.depotNumber != null ? `, ТС ${incident.depotNumber}` : ''}`,
        link: `/adas/incidents-detailing?event=${incident.eventId}`,
      },
      tx,
    );
  }

  videoReady(request: { requestId: number; userId: number; depotNumber?: number | null }, tx?: Queryable): Promise<number> {
    return this.notify(
      {
        type: 'video_ready',
        severity: 'info',
        title: `Видео по запросу № ${request.requestId} готово`,
        body: request.depotNumber != null ? `ТС ${request.depotNumber}` : undefined,
        link: `/video/myrequests?request=${request.requestId}`,
        userId: request.userId,
      },
      tx,
    );
  }
}
