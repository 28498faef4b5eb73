import type { Db } from '../db/types';
import type { EventsWriter } from '../journals/eventsWriter';
import { temperOf, type TerminalTemper } from '../simulator/simulatedTerminals';
import { COMMAND_REASONS, COMMAND_STATUS as S } from '../../shared/equipment/commandStatus';
import { defaultParameters, type ParameterValues } from '../../shared/equipment/parameters';
import { createRollout } from './rollouts';

const DAY = 86_400_000;
/** Terminals in the hand-picked pilot group. */
const PILOT_SIZE = 8;

/** How the first rollout ended for a terminal of each temper (the same terminals refuse today). */
const OUTCOME: Record<TerminalTemper, { status: number; reason: string | null; attempts: number }> = {
  ok: { status: S.performed, reason: null, attempts: 1 },
  refuses: { status: S.error, reason: COMMAND_REASONS.refused, attempts: 3 },
  illegal: { status: S.configurationError, reason: COMMAND_REASONS.illegal, attempts: 1 },
  silent: { status: S.error, reason: COMMAND_REASONS.timeout, attempts: 3 },
};

/**
 * A fresh demo's remote configuration, so the screens show a fleet already managed rather than an empty
 * list: the base configuration rolled out to the first branch three weeks ago (its terminals run it, except
 * those that refuse it today too), its version 2 being rolled out to a pilot group now through the live
 * dispatcher and the simulated terminals, a winter configuration waiting for the night window on the
 * second branch, and a draft still open to edits. Does nothing once any configuration exists.
 */
export async function seedDemoRemoteConfiguration(db: Db, events: EventsWriter, now = Date.now()): Promise<boolean> {
  const [existing] = await db.query('select 1 from mnt.configuration limit 1');
  if (existing) return false;
  const depots = await db.query<{ depot_id: number }>(
    'select distinct v.depot_id from mgt.vehicles v join mgt.dev_mnt t on t.vehicle_id = v.id order by 1 limit 2',
  );
  if (!depots.length) return false;
  const base = defaultParameters();
  const at = (daysAgo: number) => new Date(now - daysAgo * DAY).toISOString();

  const rolledOut = await db.transaction(async (tx) => {
    const configuration = async (
      name: string,
      version: number,
      parameters: ParameterValues,
      comment: string,
      lockedDaysAgo: number | null,
    ) => {
      const [row] = await tx.query<{ id: number }>(
        `insert into mnt.configuration (name, version, parameters, comment, created_by, created_at, locked_at)
         values ($1, $2, $3, $4, 'admin', $5, $6) returning id`,
        [
          name,
          version,
          JSON.stringify(parameters),
          comment,
          at((lockedDaysAgo ?? 0) + 2),
          lockedDaysAgo === null ? null : at(lockedDaysAgo),
        ],
      );
      return row.id;
    };
    const group = async (name: string, kind: 'static' | 'dynamic', filter: object | null) => {
      const [row] = await tx.query<{ id: number }>(
        'insert into mnt.vehicle_group (name, kind, filter, created_at) values ($1, $2, $3, $4) returning id',
        [name, kind, filter && JSON.stringify(filter), at(22)],
      );
      return row.id;
    };
    const v1 = await configuration('Базовая', 1, base, 'Исходные настройки парка', 21);
    const v2 = await configuration(
      'Базовая',
      2,
      { ...base, reportIntervalStanding: 120, checkInPeriod: 60 },
      'Реже на стоянке: меньше трафика',
      null,
    );
    const winter = await configuration(
      'Зимняя',
      1,
      { ...base, gnssMinElevation: 10, packetTimeout: 10 },
      'Зимний режим: больше спутников, дольше ждать подтверждения',
      null,
    );
    await configuration(
      'Экономия трафика',
      1,
      { ...base, reportIntervalMoving: 10, reportIntervalStanding: 300 },
      'Черновик для пригородных маршрутов',
      null,
    );

    const firstBranch = await group('Первый филиал', 'dynamic', { depots: [depots[0].depot_id] });
    const secondBranch = depots[1] ? await group('Второй филиал', 'dynamic', { depots: [depots[1].depot_id] }) : null;
    const pilot = await group('Пилотная группа', 'static', null);
    const terminals = await tx.query<{ vehicle_id: number; terminal_id: number }>(
      `select distinct on (t.vehicle_id) t.vehicle_id, t.id as terminal_id from mgt.dev_mnt t join mgt.vehicles v on v.id = t.vehicle_id
        where v.depot_id = $1 order by t.vehicle_id, t.id`,
      [depots[0].depot_id],
    );
    await tx.query('insert into mnt.vehicle_group_member (group_id, vehicle_id) select $1, unnest($2::int[])', [
      pilot,
      terminals.slice(0, PILOT_SIZE).map((t) => t.vehicle_id),
    ]);

    // The first rollout, three weeks ago, as the dispatcher would have left it.
    const [history] = await tx.query<{ id: number }>(
      `insert into mnt.rollout (configuration_id, group_id, group_name, state, phase, first_share, error_threshold, created_by, created_at, finished_at)
       values ($1, $2, 'Первый филиал', 'finished', 2, 20, 10, 'admin', $3, $4) returning id`,
      [v1, firstBranch, at(21), at(20)],
    );
    const outcomes = terminals.map((t) => OUTCOME[temperOf(t.vehicle_id)]);
    await tx.query(
      `insert into mnt.command (rollout_id, vehicle_id, terminal_id, phase, status, reason, attempts, sent_at, status_at)
       select $1, x.vehicle_id, x.terminal_id, case when x.n <= ceil(cardinality($2::int[]) * 0.2) then 1 else 2 end, x.status, x.reason, x.attempts, $6, $7
         from unnest($2::int[], $3::int[], $4::int[], $5::text[], $8::int[]) with ordinality as x(vehicle_id, terminal_id, status, reason, attempts, n)`,
      [
        history.id,
        terminals.map((t) => t.vehicle_id),
        terminals.map((t) => t.terminal_id),
        outcomes.map((o) => o.status),
        outcomes.map((o) => o.reason),
        at(21),
        at(20),
        outcomes.map((o) => o.attempts),
      ],
    );
    await tx.query(
      `insert into mnt.terminal_config (vehicle_id, configuration_id, applied_at)
       select vehicle_id, $2, $3 from mnt.command where rollout_id = $1 and status = ${S.performed}`,
      [history.id, v1, at(20)],
    );
    return { v2, winter, pilot, secondBranch };
  });

  // Today's rollouts go through the same path as a user's: the pilot now, the winter one in the night window.
  await createRollout(db, events, { groupId: rolledOut.pilot, configurationId: rolledOut.v2, firstShare: 50, errorThreshold: 30 }, 'admin');
  if (rolledOut.secondBranch) {
    await createRollout(
      db,
      events,
      {
        groupId: rolledOut.secondBranch,
        configurationId: rolledOut.winter,
        firstShare: 10,
        errorThreshold: 5,
        windowFrom: 22 * 60,
        windowTo: 5 * 60,
      },
      'admin',
    );
  }
  return true;
}
