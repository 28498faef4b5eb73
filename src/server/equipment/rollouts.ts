import type { Db, Queryable } from '../db/types';
import type { EventsWriter } from '../journals/eventsWriter';
import { fail } from '../http/errors';
import { COMMAND_REASONS, COMMAND_STATUS as S, type RolloutState } from '../../shared/equipment/commandStatus';
import { hhMmToMinutes } from '../../shared/time';
import { findGroup, groupVehiclesSql } from './vehicleGroups';
import type { RolloutBody } from '../../shared/equipment/api';

/** A window end as minutes of day: a clock text by the shared hh:mm rule ('25:00' is 00:00), minutes as they are. */
const windowMinutes = (value: number | string | null | undefined): number | null =>
  value === null || value === undefined ? null : typeof value === 'string' ? hhMmToMinutes(value) : value;

/**
 * The order terminals are taken in: by a hash of the vehicle id, so the first phase is a spread of the
 * group (several depots and models) rather than its first depot.
 */
const SPREAD = '((vehicle_id::bigint * 2654435761) % 4294967296)';

/**
 * Starts a rollout: locks the configuration (from now on it changes only by a new version), resolves the
 * group now (a dynamic one picks up vehicles added since it was made), and creates one command per
 * vehicle with a terminal: the first share queued, the rest waiting for phase 2 (status 1 created).
 */
export async function createRollout(
  db: Db,
  events: EventsWriter,
  input: RolloutBody,
  username: string,
): Promise<{ id: number; commands: number }> {
  if ((input.windowFrom == null) !== (input.windowTo == null)) throw fail(400, 'mnt_window_incomplete');
  return db.transaction(async (tx) => {
    const [configuration] = await tx.query<{ id: number; name: string; version: number }>(
      'update mnt.configuration set locked_at = coalesce(locked_at, now()) where id = $1 returning id, name, version',
      [input.configurationId],
    );
    if (!configuration) throw fail(404, 'not_found');
    const group = await findGroup(tx, input.groupId);
    if (!group) throw fail(404, 'not_found');
    const [active] = await tx.query(`select id from mnt.rollout where group_id = $1 and state in ('running', 'paused') limit 1`, [
      group.id,
    ]);
    if (active) throw fail(409, 'mnt_rollout_active');
    const [rollout] = await tx.query<{ id: number }>(
      `insert into mnt.rollout (configuration_id, group_id, group_name, first_share, error_threshold, window_from, window_to, max_attempts, created_by)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id`,
      [
        configuration.id,
        group.id,
        group.name,
        input.firstShare,
        input.errorThreshold,
        windowMinutes(input.windowFrom),
        windowMinutes(input.windowTo),
        input.maxAttempts ?? 3,
        username,
      ],
    );
    const params: unknown[] = [rollout.id, input.firstShare];
    const members = groupVehiclesSql(group, params);
    const [{ count }] = await tx.query<{ count: number }>(
      `with terminals as (
         select distinct on (t.vehicle_id) t.vehicle_id, t.id as terminal_id from mgt.dev_mnt t
          where t.vehicle_id in (${members}) order by t.vehicle_id, t.id),
       ranked as (select *, row_number() over (order by ${SPREAD}, vehicle_id) as n, count(*) over () as total from terminals),
       inserted as (
         insert into mnt.command (rollout_id, vehicle_id, terminal_id, phase, status)
         select $1, vehicle_id, terminal_id, case when n <= ceil(total * $2::real / 100) then 1 else 2 end,
                case when n <= ceil(total * $2::real / 100) then ${S.queuing} else ${S.created} end
           from ranked returning 1)
       select count(*)::int as count from inserted`,
      params,
    );
    if (count === 0) throw fail(400, 'mnt_group_empty');
    await events.softwareEvents(
      [
        {
          kind: 'mnt_rollout_started',
          message: `Развёртывание №${rollout.id}: конфигурация ${configuration.name} v${configuration.version} на группу «${group.name}», ${count} терминалов (${username})`,
          details: {
            rolloutId: rollout.id,
            configurationId: configuration.id,
            groupId: group.id,
            commands: count,
            firstShare: input.firstShare,
            errorThreshold: input.errorThreshold,
          },
        },
      ],
      tx,
    );
    return { id: rollout.id, commands: count };
  });
}

const ALLOWED: Record<'pause' | 'resume' | 'cancel', readonly RolloutState[]> = {
  pause: ['running'],
  resume: ['paused'],
  cancel: ['running', 'paused'],
};

/**
 * Pause (nothing more is sent; sent commands still complete), resume (a rollout paused by the error
 * threshold then goes on past it: the user decided), cancel (every command not final becomes an error
 * «Развёртывание отменено»; a terminal that still confirms is not counted, but the configuration it now
 * runs is recorded).
 */
export async function changeRollout(
  db: Db,
  events: EventsWriter,
  id: number,
  action: 'pause' | 'resume' | 'cancel',
  username: string,
  now = Date.now(),
): Promise<RolloutState> {
  return db.transaction(async (tx: Queryable) => {
    const [row] = await tx.query<{ state: RolloutState; pause_reason: string | null }>(
      'select state, pause_reason from mnt.rollout where id = $1 for update',
      [id],
    );
    if (!row) throw fail(404, 'not_found');
    if (!ALLOWED[action].includes(row.state)) throw fail(409, 'mnt_rollout_state');
    const at = new Date(now).toISOString();
    let state: RolloutState;
    if (action === 'pause') {
      state = 'paused';
      await tx.query(`update mnt.rollout set state = 'paused', pause_reason = $2 where id = $1`, [
        id,
        `Приостановлено пользователем ${username}`,
      ]);
    } else if (action === 'resume') {
      state = 'running';
      await tx.query(
        `update mnt.rollout set state = 'running', pause_reason = null, threshold_overridden = threshold_overridden or $2 where id = $1`,
        [id, row.pause_reason?.startsWith('Доля ошибок') ?? false],
      );
    } else {
      state = 'cancelled';
      await tx.query(`update mnt.rollout set state = 'cancelled', finished_at = $2 where id = $1`, [id, at]);
      await tx.query(
        `update mnt.command set status = ${S.error}, reason = $2, retry_at = null, status_at = $3
          where rollout_id = $1 and (status in (${S.created}, ${S.queuing}, ${S.waiting}, ${S.connecting}) or retry_at is not null)`,
        [id, COMMAND_REASONS.cancelled, at],
      );
    }
    const verb = { pause: 'приостановлено', resume: 'возобновлено', cancel: 'отменено' }[action];
    await events.softwareEvents(
      [{ kind: `mnt_rollout_${action}`, message: `Развёртывание №${id} ${verb}: ${username}`, details: { rolloutId: id } }],
      tx,
    );
    return state;
  });
}
