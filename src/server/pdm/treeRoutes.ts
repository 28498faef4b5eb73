import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/types';
import { fail } from '../http/errors';
import { idParams } from '../http/pathIds';
import {
  CHANNEL_KINDS,
  CHANNEL_MAX,
  MODEL_MAX,
  NODE_KINDS,
  NODE_NAME_MAX,
  PDM_API,
  SENSOR_TYPES,
  SILENCE_DEFAULT_S,
  SILENCE_MAX_S,
  SILENCE_MIN_S,
  TREE_NAME_MAX,
  TREE_NODES_MAX,
  UNIT_MAX,
  type PdmNode,
  type PdmTree,
} from '../../shared/pdm/model';

const PATH = '/pdm/tree-editor';
const READ = { access: { path: PATH, action: 'read' }, module: 'pdm' } as const;
const CREATE = { access: { path: PATH, action: 'create' }, module: 'pdm' } as const;
// Deleting a node is an edit of its tree: code 36 ("add/edit trees") grants create and update.
const UPDATE = { access: { path: PATH, action: 'update' }, module: 'pdm' } as const;

const id = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;
const nullableNumber = { type: ['number', 'null'] } as const;
const nodeFields = {
  name: { type: 'string', minLength: 1, maxLength: NODE_NAME_MAX, pattern: '\\S' },
  kind: { type: 'string', enum: [...NODE_KINDS] },
  sensor_type: { type: ['string', 'null'], enum: [...SENSOR_TYPES, null] },
  channel_kind: { type: ['string', 'null'], enum: [...CHANNEL_KINDS, null] },
  channel: { type: ['integer', 'null'], minimum: 0, maximum: CHANNEL_MAX },
  unit: { type: ['string', 'null'], maxLength: UNIT_MAX },
  scale: { type: 'number', minimum: -1e9, maximum: 1e9 },
  offset: { type: 'number', minimum: -1e9, maximum: 1e9 },
  normal_min: nullableNumber,
  normal_max: nullableNumber,
  fault_min: nullableNumber,
  fault_max: nullableNumber,
  silence_s: { type: 'integer', minimum: SILENCE_MIN_S, maximum: SILENCE_MAX_S },
} as const;
type NodeInput = Partial<Omit<PdmNode, 'id' | 'tree_id' | 'position'>>;

const NODE_COLUMNS =
  'id, tree_id, parent_id, position, name, kind, sensor_type, channel_kind, channel, unit, scale, "offset", normal_min, normal_max, fault_min, fault_max, silence_s';

async function treeOr404(db: Queryable, treeId: number): Promise<{ id: number; name: string; model: string | null }> {
  const [tree] = await db.query<{ id: number; name: string; model: string | null }>('select id, name, model from pdm.tree where id = $1', [
    treeId,
  ]);
  if (!tree) throw fail(404, 'pdm_tree_not_found');
  return tree;
}

async function nodeOr404(db: Queryable, nodeId: number): Promise<PdmNode> {
  const [node] = await db.query<PdmNode>(`select ${NODE_COLUMNS} from pdm.node where id = $1`, [nodeId]);
  if (!node) throw fail(404, 'pdm_node_not_found');
  return node;
}

/** Ranges that make sense: each min ≤ its max, the normal range inside the fault limits. */
function checkNode(node: NodeInput): void {
  if ((node.channel_kind === null || node.channel_kind === undefined) !== (node.channel === null || node.channel === undefined))
    throw fail(400, 'pdm_channel_incomplete');
  const le = (a: number | null | undefined, b: number | null | undefined) =>
    a === null || a === undefined || b === null || b === undefined || a <= b;
  if (
    !le(node.normal_min, node.normal_max) ||
    !le(node.fault_min, node.fault_max) ||
    !le(node.fault_min, node.normal_min) ||
    !le(node.normal_max, node.fault_max) ||
    !le(node.fault_min, node.normal_max) ||
    !le(node.normal_min, node.fault_max)
  )
    throw fail(400, 'pdm_range_invalid');
}

/** A unique violation on (tree, channel) as its catalogue code. */
async function channelChecked<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw fail(409, 'pdm_channel_taken');
    throw err;
  }
}

/** Ids of a node and every node under it. */
async function subtree(db: Queryable, ids: number[]): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    `with recursive t as (select id from pdm.node where id = any($1::int[]) union select n.id from pdm.node n join t on n.parent_id = t.id) select id from t`,
    [ids],
  );
  return rows.map((r) => r.id);
}

/**
 * /pdm/tree-editor (code 36): data-logger trees of vehicle models, their nodes, their assignment to vehicles.
 * Every write is one transaction and one user-actions journal entry with its before and after; the node
 * index used by ingestion is reloaded after it.
 */
export default async function treeRoutes(app: FastifyInstance): Promise<void> {
  const changed = () => {
    void app.pdm.nodes.refresh().catch((err) => app.log.warn({ err }, 'PDM node index refresh failed'));
    app.bus.publish('cache', { kind: 'directory', name: 'pdm.nodes' });
  };
  const journal = (
    request: FastifyRequest,
    tx: Queryable,
    action: string,
    object: string,
    objectId: number,
    before?: unknown,
    after?: unknown,
  ) => app.journal.record(request, { action, object, objectId, before, after }, tx);

  app.get(
    `${PDM_API}/trees`,
    { config: READ, schema: { tags: ['pdm'], summary: 'Деревья регистраторов: модель ТС, число узлов и ТС' } },
    async () => {
      const list = await app.db.query<PdmTree>(
        `select t.id, t.name, t.model, (select count(*)::int from pdm.node n where n.tree_id = t.id) as nodes,
              (select count(*)::int from pdm.tree_vehicle v where v.tree_id = t.id) as vehicles
         from pdm.tree t order by lower(t.name), t.id`,
      );
      return { list, count: list.length };
    },
  );

  app.get<{ Params: { id: number } }>(
    `${PDM_API}/trees/:id`,
    { config: READ, schema: { tags: ['pdm'], summary: 'Дерево: узлы (в порядке) и назначенные ТС', params: idParams } },
    async (request) => {
      const tree = await treeOr404(app.db, request.params.id);
      const nodes = await app.db.query<PdmNode>(
        `select ${NODE_COLUMNS} from pdm.node where tree_id = $1 order by parent_id nulls first, position, id`,
        [tree.id],
      );
      const vehicles = await app.db.query<{ id: number; depot_number: number; state_number: string | null; model: string | null }>(
        `select v.id, v.depot_number, v.state_number, v.model from pdm.tree_vehicle tv join mgt.vehicles v on v.id = tv.vehicle_id where tv.tree_id = $1 order by v.depot_number`,
        [tree.id],
      );
      return { ...tree, nodes, vehicles };
    },
  );

  const treeBody = {
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties: {
      name: { type: 'string', minLength: 1, maxLength: TREE_NAME_MAX, pattern: '\\S' },
      model: { type: ['string', 'null'], maxLength: MODEL_MAX },
    },
  } as const;

  app.post<{ Body: { name: string; model?: string | null } }>(
    `${PDM_API}/trees`,
    { config: CREATE, schema: { tags: ['pdm'], summary: 'Новое дерево для модели ТС', body: treeBody } },
    async (request) => {
      return app.db.transaction(async (tx) => {
        const [tree] = await tx.query<{ id: number; name: string; model: string | null }>(
          'insert into pdm.tree (name, model) values ($1, $2) returning id, name, model',
          [request.body.name.trim(), request.body.model?.trim() || null],
        );
        await journal(request, tx, 'create', 'pdm.tree', tree.id, undefined, tree);
        return tree;
      });
    },
  );

  app.put<{ Params: { id: number }; Body: { name: string; model?: string | null } }>(
    `${PDM_API}/trees/:id`,
    { config: UPDATE, schema: { tags: ['pdm'], summary: 'Переименовать дерево, сменить модель', params: idParams, body: treeBody } },
    async (request) => {
      return app.db.transaction(async (tx) => {
        const before = await treeOr404(tx, request.params.id);
        const [after] = await tx.query<{ id: number; name: string; model: string | null }>(
          'update pdm.tree set name = $2, model = $3, updated_at = now() where id = $1 returning id, name, model',
          [before.id, request.body.name.trim(), request.body.model?.trim() || null],
        );
        await journal(request, tx, 'update', 'pdm.tree', before.id, before, after);
        return after;
      });
    },
  );

  app.delete<{ Params: { id: number } }>(
    `${PDM_API}/trees/:id`,
    { config: UPDATE, schema: { tags: ['pdm'], summary: 'Удалить дерево (не назначенное ТС)', params: idParams } },
    async (request) => {
      await app.db.transaction(async (tx) => {
        const before = await treeOr404(tx, request.params.id);
        const [{ n }] = await tx.query<{ n: number }>('select count(*)::int as n from pdm.tree_vehicle where tree_id = $1', [before.id]);
        if (n > 0) throw fail(409, 'pdm_tree_assigned');
        await tx.query('update pdm.node set parent_id = null where tree_id = $1', [before.id]);
        await tx.query('delete from pdm.tree where id = $1', [before.id]);
        await journal(request, tx, 'delete', 'pdm.tree', before.id, before);
      });
      changed();
      return { ok: true };
    },
  );

  app.post<{ Params: { id: number }; Body: NodeInput & { parent_id?: number | null; name: string; kind: string } }>(
    `${PDM_API}/trees/:id/nodes`,
    {
      config: CREATE,
      schema: {
        tags: ['pdm'],
        summary: 'Добавить узел (в конец детей родителя; parent_id null — корень)',
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'kind'],
          properties: { parent_id: { type: ['integer', 'null'], minimum: 1, maximum: 2147483647 }, ...nodeFields },
        },
      },
    },
    async (request) => {
      const body = request.body;
      checkNode(body);
      const node = await channelChecked(() =>
        app.db.transaction(async (tx) => {
          const tree = await treeOr404(tx, request.params.id);
          const [{ n }] = await tx.query<{ n: number }>('select count(*)::int as n from pdm.node where tree_id = $1', [tree.id]);
          if (n >= TREE_NODES_MAX) throw fail(400, 'pdm_tree_too_large');
          if (body.parent_id != null && (await nodeOr404(tx, body.parent_id)).tree_id !== tree.id) throw fail(400, 'pdm_move_other_tree');
          const [created] = await tx.query<PdmNode>(
            `insert into pdm.node (tree_id, parent_id, position, name, kind, sensor_type, channel_kind, channel, unit, scale, "offset", normal_min, normal_max, fault_min, fault_max, silence_s)
         values ($1, $2, (select coalesce(max(position) + 1, 0) from pdm.node where tree_id = $1 and parent_id is not distinct from $2),
                 $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) returning ${NODE_COLUMNS}`,
            [
              tree.id,
              body.parent_id ?? null,
              body.name.trim(),
              body.kind,
              body.sensor_type ?? null,
              body.channel_kind ?? null,
              body.channel ?? null,
              body.unit ?? null,
              body.scale ?? 1,
              body.offset ?? 0,
              body.normal_min ?? null,
              body.normal_max ?? null,
              body.fault_min ?? null,
              body.fault_max ?? null,
              body.silence_s ?? SILENCE_DEFAULT_S,
            ],
          );
          await journal(request, tx, 'create', 'pdm.node', created.id, undefined, created);
          return created;
        }),
      );
      changed();
      return node;
    },
  );

  app.put<{ Params: { id: number }; Body: NodeInput }>(
    `${PDM_API}/nodes/:id`,
    {
      config: UPDATE,
      schema: {
        tags: ['pdm'],
        summary: 'Изменить узел: имя, тип, канал, единицы, диапазоны, тайм-аут',
        params: idParams,
        body: { type: 'object', additionalProperties: false, minProperties: 1, properties: nodeFields },
      },
    },
    async (request) => {
      const node = await channelChecked(() =>
        app.db.transaction(async (tx) => {
          const before = await nodeOr404(tx, request.params.id);
          const next = { ...before, ...request.body, name: (request.body.name ?? before.name).trim() };
          checkNode(next);
          const [after] = await tx.query<PdmNode>(
            `update pdm.node set name = $2, kind = $3, sensor_type = $4, channel_kind = $5, channel = $6, unit = $7, scale = $8, "offset" = $9,
           normal_min = $10, normal_max = $11, fault_min = $12, fault_max = $13, silence_s = $14 where id = $1 returning ${NODE_COLUMNS}`,
            [
              before.id,
              next.name,
              next.kind,
              next.sensor_type,
              next.channel_kind,
              next.channel,
              next.unit,
              next.scale,
              next.offset,
              next.normal_min,
              next.normal_max,
              next.fault_min,
              next.fault_max,
              next.silence_s,
            ],
          );
          await journal(request, tx, 'update', 'pdm.node', before.id, before, after);
          return after;
        }),
      );
      changed();
      return node;
    },
  );

  // Drag and drop, one node or a multi-selection: under `parent_id` (null: the root) at `position`, in the
  // order given; their children move with them.
  app.post<{ Body: { ids: number[]; parent_id: number | null; position?: number } }>(
    `${PDM_API}/nodes/move`,
    {
      config: UPDATE,
      schema: {
        tags: ['pdm'],
        summary: 'Переместить узлы (перетаскиванием) под другого родителя; потомки переезжают вместе с ними',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['ids', 'parent_id'],
          properties: {
            ids: { type: 'array', minItems: 1, maxItems: TREE_NODES_MAX, uniqueItems: true, items: id },
            parent_id: { type: ['integer', 'null'], minimum: 1, maximum: 2147483647 },
            position: { type: 'integer', minimum: 0, maximum: TREE_NODES_MAX },
          },
        },
      },
    },
    async (request) => {
      const { ids, parent_id: parentId } = request.body;
      const result = await app.db.transaction(async (tx) => {
        const moving = await tx.query<PdmNode>(
          `select ${NODE_COLUMNS} from pdm.node where id = any($1::int[]) order by array_position($1::int[], id)`,
          [ids],
        );
        if (moving.length !== ids.length) throw fail(404, 'pdm_node_not_found');
        const treeId = moving[0].tree_id;
        if (moving.some((n) => n.tree_id !== treeId)) throw fail(400, 'pdm_move_other_tree');
        if (parentId !== null) {
          const parent = await nodeOr404(tx, parentId);
          if (parent.tree_id !== treeId) throw fail(400, 'pdm_move_other_tree');
          if ((await subtree(tx, ids)).includes(parentId)) throw fail(400, 'pdm_move_into_itself');
        }
        // The new order of the parent's children: the others in their order, the moved ones inserted at `position`.
        const siblings = (
          await tx.query<{ id: number }>(
            'select id from pdm.node where tree_id = $1 and parent_id is not distinct from $2 and id <> all($3::int[]) order by position, id',
            [treeId, parentId, ids],
          )
        ).map((r) => r.id);
        const at = Math.min(request.body.position ?? siblings.length, siblings.length);
        const order = [...siblings.slice(0, at), ...ids, ...siblings.slice(at)];
        await tx.query(
          `update pdm.node n set parent_id = case when n.id = any($3::int[]) then $2 else n.parent_id end, position = o.i - 1
           from unnest($1::int[]) with ordinality as o(id, i) where n.id = o.id`,
          [order, parentId, ids],
        );
        const after = moving.map((n) => ({ id: n.id, parent_id: parentId, position: order.indexOf(n.id) }));
        await journal(
          request,
          tx,
          'move',
          'pdm.node',
          ids[0],
          moving.map((n) => ({ id: n.id, parent_id: n.parent_id, position: n.position })),
          after,
        );
        return after;
      });
      changed();
      return { list: result };
    },
  );

  // Delete nodes with everything under them; refused while the tree is assigned to vehicles and a node to go
  // is a sensor on a channel (its readings and states would lose their node).
  app.post<{ Body: { ids: number[] } }>(
    `${PDM_API}/nodes/delete`,
    {
      config: UPDATE,
      schema: {
        tags: ['pdm'],
        summary: 'Удалить узлы вместе с потомками; нельзя, пока узел получает данные назначенных ТС',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['ids'],
          properties: { ids: { type: 'array', minItems: 1, maxItems: TREE_NODES_MAX, uniqueItems: true, items: id } },
        },
      },
    },
    async (request) => {
      const deleted = await app.db.transaction(async (tx) => {
        const all = await subtree(tx, request.body.ids);
        const nodes = await tx.query<PdmNode>(`select ${NODE_COLUMNS} from pdm.node where id = any($1::int[])`, [all]);
        if (nodes.length < request.body.ids.length) throw fail(404, 'pdm_node_not_found');
        const trees = [...new Set(nodes.map((n) => n.tree_id))];
        const [{ assigned }] = await tx.query<{ assigned: number }>(
          'select count(*)::int as assigned from pdm.tree_vehicle where tree_id = any($1::int[])',
          [trees],
        );
        if (assigned > 0 && nodes.some((n) => n.channel_kind !== null)) throw fail(409, 'pdm_node_assigned');
        await tx.query('update pdm.node set parent_id = null where id = any($1::int[])', [all]);
        await tx.query('delete from pdm.node_state where node_id = any($1::int[])', [all]);
        await tx.query('delete from pdm.node where id = any($1::int[])', [all]);
        await journal(request, tx, 'delete', 'pdm.node', request.body.ids[0], nodes);
        return all;
      });
      changed();
      return { deleted };
    },
  );

  // Vehicles of the tree: the exact list given, or every vehicle of the tree's model (`model: true`). A vehicle
  // carries one tree: assigning moves it from its previous tree.
  app.put<{ Params: { id: number }; Body: { vehicles?: number[]; model?: boolean; depot_numbers?: number[] } }>(
    `${PDM_API}/trees/:id/vehicles`,
    {
      config: UPDATE,
      schema: {
        tags: ['pdm'],
        summary:
          'Назначить дерево ТС: список ТС (id или гаражные номера depot_numbers; заменяет прежний) или добавить все ТС модели дерева (model: true)',
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            vehicles: { type: 'array', maxItems: 20000, uniqueItems: true, items: id },
            depot_numbers: {
              type: 'array',
              maxItems: 20000,
              uniqueItems: true,
              items: { type: 'integer', minimum: 0, maximum: 2147483647 },
            },
            model: { type: 'boolean' },
          },
        },
      },
    },
    async (request) => {
      const result = await app.db.transaction(async (tx) => {
        const tree = await treeOr404(tx, request.params.id);
        const before = (
          await tx.query<{ vehicle_id: number }>('select vehicle_id from pdm.tree_vehicle where tree_id = $1 order by vehicle_id', [
            tree.id,
          ])
        ).map((r) => r.vehicle_id);
        let wanted = request.body.vehicles ?? before;
        if (request.body.depot_numbers) {
          const found = await tx.query<{ id: number }>('select id from mgt.vehicles where depot_number = any($1::int[])', [
            request.body.depot_numbers,
          ]);
          if (found.length < request.body.depot_numbers.length) throw fail(400, 'not_found', 'depot_numbers');
          wanted = [...new Set([...(request.body.vehicles ?? []), ...found.map((r) => r.id)])];
        }
        if (request.body.model) {
          if (!tree.model) throw fail(400, 'bad_request', 'the tree names no vehicle model');
          wanted = [
            ...new Set([
              ...wanted,
              ...(await tx.query<{ id: number }>('select id from mgt.vehicles where lower(model) = lower($1)', [tree.model])).map(
                (r) => r.id,
              ),
            ]),
          ];
        }
        const known = (await tx.query<{ id: number }>('select id from mgt.vehicles where id = any($1::int[])', [wanted])).map((r) => r.id);
        if (known.length !== wanted.length) throw fail(400, 'not_found', 'vehicles');
        await tx.query('delete from pdm.tree_vehicle where tree_id = $1 and vehicle_id <> all($2::int[])', [tree.id, known]);
        await tx.query(
          `insert into pdm.tree_vehicle (vehicle_id, tree_id) select unnest($2::int[]), $1
         on conflict (vehicle_id) do update set tree_id = excluded.tree_id, assigned_at = now() where pdm.tree_vehicle.tree_id <> excluded.tree_id`,
          [tree.id, known],
        );
        const after = [...known].sort((a, b) => a - b);
        await journal(request, tx, 'assign', 'pdm.tree', tree.id, { vehicles: before }, { vehicles: after });
        return after;
      });
      changed();
      return { vehicles: result };
    },
  );
}
