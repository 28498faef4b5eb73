import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Option } from '../../shared/api';
import { fail } from '../http/errors';
import { TERMINAL_PARAMETERS, validateParameters, type ParameterValues } from '../../shared/equipment/parameters';
import type { GroupKind } from '../../shared/equipment/groups';
import {
  CommandList,
  CommandRow,
  CommandsQuery,
  Configuration,
  ConfigurationBody,
  ConfigurationChange,
  ConfigurationRow,
  Created,
  EQUIPMENT_API as API,
  FilterOptions,
  FleetShareRow,
  GroupBody,
  GroupCount,
  GroupDetails,
  GroupMember,
  GroupPreviewBody,
  GroupRow,
  IdParams,
  MNT_CONFIGURATIONS_PATH as CONFIGS,
  MNT_GROUPS_PATH as GROUPS,
  ROLLOUT_ACTIONS,
  Rollout,
  RolloutBody,
  RolloutChanged,
  RolloutCreated,
  RolloutRow,
  VehicleOptions,
  VersionBody,
  VersionCreated,
  type GroupFilter,
} from '../../shared/equipment/api';
import { changeRollout, createRollout } from './rollouts';
import { findGroup, groupVehiclesSql, unknownVehicles } from './vehicleGroups';

const MODULE = 'mntConfiguration' as const;

const checkParameters = (values: ParameterValues) => {
  const problems = validateParameters(values);
  if (problems.length) throw fail(400, ...new Set(problems.map((p) => p.code)), ...problems.map((p) => p.key));
};
const isUnique = (err: unknown) => (err as { code?: string }).code === '23505';

/**
 * Remote configuration (SCREENS.md "On-board equipment", code 32): configurations with versions, vehicle
 * groups, rollouts with their per-terminal commands. Reading needs the screen's read bit, changes its
 * create, update and delete bits; starting a rollout is a create on the configurations, pausing, resuming
 * and cancelling an update.
 */
export default async function configurationRoutes(app: FastifyInstance): Promise<void> {
  const read = (path: string) => ({ access: { path, action: 'read' as const }, module: MODULE });
  const write = (path: string, action: 'create' | 'update' | 'delete') => ({ access: { path, action }, module: MODULE });
  const tags = ['mnt'];

  app.get(
    API.parameters,
    {
      config: read(CONFIGS),
      schema: { tags, summary: 'Параметры терминала, которые задаёт конфигурация: ключ, тип, диапазон, код параметра ЕГТС (CCD)' },
    },
    async () => TERMINAL_PARAMETERS,
  );

  app.get(
    API.configurations,
    {
      config: read(CONFIGS),
      schema: {
        tags,
        summary: 'Конфигурации (все версии) и число ТС, работающих на каждой',
        response: { 200: Type.Array(ConfigurationRow) },
      },
    },
    async () => {
      return app.db.query<ConfigurationRow>(
        `select c.id, c.name, c.version, c.parameters, c.comment, c.created_by, c.created_at, c.locked_at,
              (select count(*)::int from mnt.terminal_config t where t.configuration_id = c.id) as vehicles,
              (select count(*)::int from mnt.rollout r where r.configuration_id = c.id) as rollouts
         from mnt.configuration c order by c.name, c.version desc`,
      );
    },
  );

  app.get<{ Params: IdParams }>(
    API.configuration,
    { config: read(CONFIGS), schema: { tags, params: IdParams, response: { 200: Configuration } } },
    async (request) => {
      const [row] = await app.db.query<Configuration>('select * from mnt.configuration where id = $1', [request.params.id]);
      if (!row) throw fail(404, 'not_found');
      return row;
    },
  );

  app.post<{ Body: ConfigurationBody }>(
    API.configurations,
    {
      config: write(CONFIGS, 'create'),
      schema: {
        tags,
        summary: 'Новая конфигурация (версия 1); параметры проверяются по их описанию (тип, диапазон)',
        body: ConfigurationBody,
        response: { 201: VersionCreated },
      },
    },
    async (request, reply) => {
      const { name, parameters, comment } = request.body;
      if (!name.trim()) throw fail(400, 'bad_request', 'name');
      checkParameters(parameters);
      const [exists] = await app.db.query('select 1 from mnt.configuration where lower(name) = lower($1) limit 1', [name.trim()]);
      if (exists) throw fail(409, 'mnt_configuration_exists');
      const [row] = await app.db
        .query<{ id: number }>(
          'insert into mnt.configuration (name, version, parameters, comment, created_by) values ($1, 1, $2, $3, $4) returning id',
          [name.trim(), JSON.stringify(parameters), comment ?? null, request.user!.username],
        )
        .catch((err) => {
          throw isUnique(err) ? fail(409, 'mnt_configuration_exists') : err;
        });
      return reply.status(201).send({ id: row.id, version: 1 });
    },
  );

  app.put<{ Params: IdParams; Body: ConfigurationChange }>(
    API.configuration,
    {
      config: write(CONFIGS, 'update'),
      schema: {
        tags,
        summary: 'Изменить конфигурацию, ещё не развёрнутую (иначе 409 mnt_configuration_locked: создайте новую версию)',
        params: IdParams,
        body: ConfigurationChange,
        response: { 200: Created },
      },
    },
    async (request) => {
      checkParameters(request.body.parameters);
      const [row] = await app.db.query<{ id: number; locked_at: string | null }>(
        'select id, locked_at from mnt.configuration where id = $1',
        [request.params.id],
      );
      if (!row) throw fail(404, 'not_found');
      if (row.locked_at) throw fail(409, 'mnt_configuration_locked');
      const updated = await app.db.query(
        'update mnt.configuration set parameters = $2, comment = coalesce($3, comment) where id = $1 and locked_at is null returning id',
        [row.id, JSON.stringify(request.body.parameters), request.body.comment ?? null],
      );
      if (!updated.length) throw fail(409, 'mnt_configuration_locked');
      return { id: row.id };
    },
  );

  app.post<{ Params: IdParams; Body: VersionBody }>(
    API.versions,
    {
      config: write(CONFIGS, 'create'),
      schema: {
        tags,
        summary: 'Новая версия конфигурации: параметры даны или взяты из этой версии; номер — следующий за последним',
        params: IdParams,
        body: VersionBody,
        response: { 201: VersionCreated },
      },
    },
    async (request, reply) => {
      const [base] = await app.db.query<Configuration>('select * from mnt.configuration where id = $1', [request.params.id]);
      if (!base) throw fail(404, 'not_found');
      const parameters = request.body.parameters ?? base.parameters;
      checkParameters(parameters);
      const [row] = await app.db
        .query<{ id: number; version: number }>(
          `insert into mnt.configuration (name, version, parameters, comment, created_by)
       select $1, max(version) + 1, $2, $3, $4 from mnt.configuration where name = $1 returning id, version`,
          [base.name, JSON.stringify(parameters), request.body.comment ?? null, request.user!.username],
        )
        .catch((err) => {
          throw isUnique(err) ? fail(409, 'mnt_configuration_exists') : err;
        });
      return reply.status(201).send(row);
    },
  );

  app.delete<{ Params: IdParams }>(
    API.configuration,
    {
      config: write(CONFIGS, 'delete'),
      schema: { tags, summary: 'Удалить конфигурацию, ещё не развёрнутую', params: IdParams, response: { 200: Created } },
    },
    async (request) => {
      const [row] = await app.db.query<{ locked_at: string | null }>('select locked_at from mnt.configuration where id = $1', [
        request.params.id,
      ]);
      if (!row) throw fail(404, 'not_found');
      if (row.locked_at) throw fail(409, 'mnt_configuration_locked');
      await app.db.query('delete from mnt.configuration where id = $1 and locked_at is null', [request.params.id]);
      return { id: request.params.id };
    },
  );

  app.get(
    API.fleetShare,
    {
      config: read(CONFIGS),
      schema: {
        tags,
        summary: 'Доля парка (ТС с терминалом) на каждой версии конфигурации; configuration_id null — ни одна не применена',
        response: { 200: Type.Array(FleetShareRow) },
      },
    },
    async () => {
      return app.db.query<FleetShareRow>(
        `with fleet as (select distinct vehicle_id from mgt.dev_mnt)
       select tc.configuration_id, coalesce(c.name || ' v' || c.version, 'Не задана') as label, count(*)::int as vehicles,
              round(100.0 * count(*) / greatest((select count(*) from fleet), 1), 1)::float8 as share
         from fleet f left join mnt.terminal_config tc on tc.vehicle_id = f.vehicle_id left join mnt.configuration c on c.id = tc.configuration_id
        group by tc.configuration_id, c.name, c.version order by count(*) desc`,
      );
    },
  );

  // ---- vehicle groups ----
  const groupCount = async (group: { id: number; kind: GroupKind; filter: GroupFilter | null }) => {
    const params: unknown[] = [];
    const [row] = await app.db.query<{ count: number }>(
      `select count(*)::int as count from (${groupVehiclesSql(group, params)}) g`,
      params,
    );
    return row.count;
  };

  app.get(
    API.groups,
    {
      config: read(GROUPS),
      schema: {
        tags,
        summary: 'Группы ТС; у динамической группы состав вычисляется по фильтру заново',
        response: { 200: Type.Array(GroupRow) },
      },
    },
    async (): Promise<GroupRow[]> => {
      const groups = await app.db.query<Omit<GroupRow, 'vehicles'>>(
        `select g.id, g.name, g.kind, g.filter, g.created_at,
              (select json_build_object('id', r.id, 'state', r.state, 'configuration', c.name || ' v' || c.version)
                 from mnt.rollout r join mnt.configuration c on c.id = r.configuration_id where r.group_id = g.id order by r.id desc limit 1) as last_rollout
         from mnt.vehicle_group g order by g.name`,
      );
      return Promise.all(groups.map(async (g) => ({ ...g, vehicles: await groupCount(g) })));
    },
  );

  app.get<{ Params: IdParams }>(
    API.group,
    {
      config: read(GROUPS),
      schema: { tags, summary: 'Группа: её ТС сейчас (первые 500) и их число', params: IdParams, response: { 200: GroupDetails } },
    },
    async (request): Promise<GroupDetails> => {
      const group = await findGroup(app.db, request.params.id);
      if (!group) throw fail(404, 'not_found');
      const params: unknown[] = [];
      const members = await app.db.query<GroupMember>(
        `select v.id, v.depot_number, v.state_number, d.depot_name, c.name || ' v' || c.version as configuration
         from (${groupVehiclesSql(group, params)}) g join mgt.vehicles v on v.id = g.vehicle_id
         left join mgt.depot d on d.depot_id = v.depot_id left join mnt.terminal_config tc on tc.vehicle_id = v.id
         left join mnt.configuration c on c.id = tc.configuration_id order by v.depot_number limit 500`,
        params,
      );
      return { ...group, count: await groupCount(group), vehicles: members };
    },
  );

  const saveGroup = async (body: GroupBody, id?: number) => {
    const name = body.name.trim();
    if (!name) throw fail(400, 'bad_request', 'name');
    return app.db
      .transaction(async (tx) => {
        const [row] = await (id
          ? tx.query<{ id: number }>('update mnt.vehicle_group set name = $2, kind = $3, filter = $4 where id = $1 returning id', [
              id,
              name,
              body.kind,
              body.kind === 'dynamic' ? JSON.stringify(body.filter ?? {}) : null,
            ])
          : tx.query<{ id: number }>('insert into mnt.vehicle_group (name, kind, filter) values ($1, $2, $3) returning id', [
              name,
              body.kind,
              body.kind === 'dynamic' ? JSON.stringify(body.filter ?? {}) : null,
            ]));
        if (!row) throw fail(404, 'not_found');
        await tx.query('delete from mnt.vehicle_group_member where group_id = $1', [row.id]);
        if (body.kind === 'static' && body.vehicles?.length) {
          // a member that is no vehicle is refused, never dropped: the group would silently be smaller than asked
          const unknown = await unknownVehicles(tx, body.vehicles);
          if (unknown.length)
            throw fail(
              400,
              'mnt_group_vehicles_unknown',
              `vehicles: ${unknown.slice(0, 20).join(', ')}${unknown.length > 20 ? ', …' : ''}`,
            );
          await tx.query('insert into mnt.vehicle_group_member (group_id, vehicle_id) select $1, unnest($2::int[])', [
            row.id,
            body.vehicles,
          ]);
        }
        return row.id;
      })
      .catch((err) => {
        throw isUnique(err) ? fail(409, 'mnt_group_exists') : err;
      });
  };

  app.post<{ Body: GroupBody }>(
    API.groups,
    {
      config: write(GROUPS, 'create'),
      schema: {
        tags,
        summary:
          'Новая группа: static — перечень ТС (vehicles), dynamic — фильтр (предприятия, филиалы, модели, типы терминалов, версии конфигурации; 0 — без конфигурации)',
        body: GroupBody,
        response: { 201: Created },
      },
    },
    async (request, reply) => reply.status(201).send({ id: await saveGroup(request.body) }),
  );

  app.put<{ Params: IdParams; Body: GroupBody }>(
    API.group,
    {
      config: write(GROUPS, 'update'),
      schema: { tags, params: IdParams, body: GroupBody, response: { 200: Created } },
    },
    async (request) => ({ id: await saveGroup(request.body, request.params.id) }),
  );

  app.delete<{ Params: IdParams }>(
    API.group,
    {
      config: write(GROUPS, 'delete'),
      schema: { tags, params: IdParams, response: { 200: Created } },
    },
    async (request) => {
      const [active] = await app.db.query(`select 1 from mnt.rollout where group_id = $1 and state in ('running', 'paused')`, [
        request.params.id,
      ]);
      if (active) throw fail(409, 'mnt_group_in_use');
      const deleted = await app.db.query('delete from mnt.vehicle_group where id = $1 returning id', [request.params.id]);
      if (!deleted.length) throw fail(404, 'not_found');
      return { id: request.params.id };
    },
  );

  app.post<{ Body: GroupPreviewBody }>(
    API.groupPreview,
    {
      config: read(GROUPS),
      schema: {
        tags,
        summary: 'Сколько ТС попадёт в группу с таким фильтром (без сохранения)',
        body: GroupPreviewBody,
        response: { 200: GroupCount },
      },
    },
    async (request) => {
      if (request.body.kind === 'static') {
        const [row] = await app.db.query<{ count: number }>('select count(*)::int as count from mgt.vehicles where id = any($1::int[])', [
          request.body.vehicles ?? [],
        ]);
        return { count: row.count };
      }
      return { count: await groupCount({ id: 0, kind: 'dynamic', filter: request.body.filter ?? {} }) };
    },
  );

  app.get(
    API.filterOptions,
    {
      config: read(GROUPS),
      schema: {
        tags,
        summary: 'Значения для фильтра динамической группы: предприятия, филиалы, модели, типы терминалов, конфигурации',
        response: { 200: FilterOptions },
      },
    },
    async (): Promise<FilterOptions> => {
      const [agencies, depots, models, terminalTypes, configurations] = await Promise.all([
        app.db.query<Option>('select agency_id as id, title as name from mgt.agency order by title'),
        app.db.query<Option>('select depot_id as id, depot_name as name from mgt.depot order by depot_name'),
        app.db.query<{ name: string }>('select distinct model as name from mgt.vehicles where model is not null order by model'),
        app.db.query<Option>(`select id, name || ' ' || version as name from mgt.mnt_type order by name`),
        app.db.query<Option>(`select id, name || ' v' || version as name from mnt.configuration order by name, version`),
      ]);
      return {
        agencies,
        depots,
        models: models.map((m) => m.name),
        terminalTypes,
        configurations: [{ id: 0, name: 'Без конфигурации' }, ...configurations],
      };
    },
  );

  app.get(
    API.vehicleOptions,
    {
      config: read(GROUPS),
      schema: {
        tags,
        summary: 'ТС для статической группы: id и подпись «гаражный номер · госномер · филиал»',
        response: { 200: VehicleOptions },
      },
    },
    async () => {
      return app.db.query<Option>(
        `select v.id, v.depot_number || coalesce(' · ' || v.state_number, '') || coalesce(' · ' || d.depot_name, '') as name
         from mgt.vehicles v left join mgt.depot d on d.depot_id = v.depot_id order by v.depot_number, v.id`,
      );
    },
  );

  // ---- rollouts ----
  app.get<{ Params: IdParams }>(
    API.groupRollouts,
    {
      config: read(CONFIGS),
      schema: {
        tags,
        summary: 'Развёртывания на группу, новые первыми, с числом команд по статусам',
        params: IdParams,
        response: { 200: Type.Array(RolloutRow) },
      },
    },
    async (request) => {
      return app.db.query<RolloutRow>(
        `select r.id, r.state, r.phase, r.first_share, r.error_threshold, r.window_from, r.window_to, r.pause_reason, r.created_by, r.created_at, r.finished_at,
              r.configuration_id, c.name || ' v' || c.version as configuration,
              (select coalesce(json_object_agg(status, n), '{}') from (select status, count(*)::int as n from mnt.command where rollout_id = r.id group by status) s) as counts,
              (select count(*)::int from mnt.command where rollout_id = r.id and retry_at is not null) as retrying
         from mnt.rollout r join mnt.configuration c on c.id = r.configuration_id where r.group_id = $1 order by r.id desc limit 50`,
        [request.params.id],
      );
    },
  );

  app.post<{ Body: RolloutBody }>(
    API.rollouts,
    {
      config: write(CONFIGS, 'create'),
      schema: {
        tags,
        summary:
          'Развернуть конфигурацию на группу: firstShare % группы первой очередью, остальные — если доля ошибок ниже errorThreshold %, иначе пауза; окно windowFrom–windowTo (минуты суток оператора или время чч:мм, нормализуемое как в любом поле времени: 25:00 — это 00:00) ограничивает отправку',
        body: RolloutBody,
        response: { 201: RolloutCreated },
      },
    },
    async (request, reply) => {
      const result = await createRollout(app.db, app.eventsWriter, request.body, request.user!.username);
      app.equipment.dispatcher.wake();
      return reply.status(201).send(result);
    },
  );

  app.get<{ Params: IdParams }>(
    API.rollout,
    {
      config: read(CONFIGS),
      schema: { tags, summary: 'Развёртывание и число его команд по статусам и очередям', params: IdParams, response: { 200: Rollout } },
    },
    async (request): Promise<Rollout> => {
      const [rollout] = await app.db.query<Omit<Rollout, 'counts'>>(
        `select r.*, c.name || ' v' || c.version as configuration from mnt.rollout r join mnt.configuration c on c.id = r.configuration_id where r.id = $1`,
        [request.params.id],
      );
      if (!rollout) throw fail(404, 'not_found');
      const counts = await app.db.query<Rollout['counts'][number]>(
        `select phase, status, count(*)::int as count, count(*) filter (where retry_at is not null)::int as retrying from mnt.command where rollout_id = $1 group by phase, status order by phase, status`,
        [request.params.id],
      );
      return { ...rollout, counts };
    },
  );

  app.get<{ Params: IdParams; Querystring: CommandsQuery }>(
    API.rolloutCommands,
    {
      config: read(CONFIGS),
      schema: {
        tags,
        summary: 'Команды развёртывания по терминалам: статус (коды раздела 3), причина ошибки, попытки',
        params: IdParams,
        querystring: CommandsQuery,
        response: { 200: CommandList },
      },
    },
    async (request): Promise<CommandList> => {
      const { status, offset = 0, limit = 100 } = request.query;
      const params: unknown[] = [request.params.id];
      const where = ['c.rollout_id = $1'];
      if (status !== undefined) where.push(`c.status = $${params.push(status)}`);
      const [{ total }] = await app.db.query<{ total: number }>(
        `select count(*)::int as total from mnt.command c where ${where.join(' and ')}`,
        params,
      );
      const list = await app.db.query<CommandRow>(
        `select c.id, c.vehicle_id, v.depot_number, v.state_number, d.depot_name, c.phase, c.status, c.reason, c.attempts, c.retry_at, c.sent_at, c.status_at
         from mnt.command c left join mgt.vehicles v on v.id = c.vehicle_id left join mgt.depot d on d.depot_id = v.depot_id
        where ${where.join(' and ')} order by c.status desc, v.depot_number, c.id offset ${offset} limit ${limit}`,
        params,
      );
      return { total, list };
    },
  );

  for (const action of ROLLOUT_ACTIONS) {
    app.post<{ Params: IdParams }>(
      API.rolloutAction.replace(':action', action),
      {
        config: write(CONFIGS, 'update'),
        schema: {
          tags,
          summary: {
            pause: 'Приостановить развёртывание',
            resume: 'Возобновить развёртывание',
            cancel: 'Отменить развёртывание: неотправленные и неподтверждённые команды — ошибка «Развёртывание отменено»',
          }[action],
          params: IdParams,
          response: { 200: RolloutChanged },
        },
      },
      async (request) => {
        const state = await changeRollout(app.db, app.eventsWriter, request.params.id, action, request.user!.username);
        app.equipment.dispatcher.wake();
        return { id: request.params.id, state };
      },
    );
  }
}
