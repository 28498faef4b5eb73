import type { Queryable } from '../db/types';
import type { NotificationType, Severity } from './notificationTypes';

/** The dispatch exceptions the bell tells of, as the board names them. */
export type BellExceptionKind = 'driver_message' | 'exit_not_started' | 'run_not_performed' | 'off_route' | 'no_signal';
const DISPATCH_KIND_TITLES: Record<BellExceptionKind, string> = {
  driver_message: 'Сообщение водителя',
  exit_not_started: 'Выход не начат',
  run_not_performed: 'Рейс не выполнен',
  off_route: 'Сход с маршрута',
  no_signal: 'Нет связи',
};

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

  /** Rewrites a notification's title and body (a summary that grows while what it sums goes on). */
  async revise(id: number, text: { title: string; body?: string }, tx: Queryable = this.db): Promise<void> {
    await tx.query('update app.notification set title = $2, body = $3 where id = $1', [
      id,
      text.title.trim().slice(0, TITLE_MAX),
      (text.body ?? '').slice(0, BODY_MAX),
    ]);
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

  /**
   * A dispatch exception that needs a person: a driver's message links to the inbox of «Сообщения водителям»,
   * the others to the board narrowed to their kind.
   */
  dispatchException(
    exception: {
      kind: BellExceptionKind;
      vehicle: number | null;
      route: string | null;
      graph: string | null;
      race: string | null;
      text: string | null;
    },
    tx?: Queryable,
  ): Promise<number> {
    const { kind, vehicle, route, graph, race } = exception;
    const parts = [
      route !== null ? `маршрут ${route}` : null,
      graph !== null && graph !== '0' && kind !== 'driver_message' ? `выход ${graph}` : null,
      race !== null ? `рейс ${race}` : null,
      vehicle !== null ? `ТС ${vehicle}` : null,
    ].filter(Boolean);
    const message = kind === 'driver_message';
    return this.notify(
      {
        type: message ? 'dispatch_driver_message' : 'dispatch_exception',
        severity: message || kind === 'off_route' ? 'info' : 'warning',
        title: `${DISPATCH_KIND_TITLES[kind]}${parts.length ? `: ${parts.join(', ')}` : ''}`,
        body: exception.text ?? undefined,
        link: message ? '/dispatch/messages' : `/dispatch/board?kind=${kind}`,
      },
      tx,
    );
  }

  /**
   * Many dispatch exceptions at once (an outage of the signal over the fleet): one notification counting them by
   * kind; given `id`, that summary is rewritten with the new counts. Answers its id.
   */
  async dispatchSummary(counts: ReadonlyMap<string, number>, tx?: Queryable, id?: number): Promise<number> {
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    const text = {
      title: `Много исключений диспетчерской: ${total}`,
      body: [...counts]
        .sort((a, b) => b[1] - a[1])
        .map(([kind, n]) => `${DISPATCH_KIND_TITLES[kind as BellExceptionKind] ?? kind} — ${n}`)
        .join(', '),
    };
    if (id !== undefined) {
      await this.revise(id, text, tx);
      return id;
    }
    return this.notify({ type: 'dispatch_exception', severity: 'critical', ...text, link: '/dispatch/board' }, tx);
  }
}
