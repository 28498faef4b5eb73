import type { Queryable } from '../db/types';
import type { Group } from '../../shared/equipment/api';

/**
 * The vehicles of a group now: a static group's members (those still in the vehicles handbook), a dynamic
 * group's filter evaluated against the handbooks and the configuration each terminal runs, so a vehicle
 * added since joins. Returns the SQL of `select vehicle_id` with its parameters appended to `params`.
 */
export function groupVehiclesSql(group: Pick<Group, 'id' | 'kind' | 'filter'>, params: unknown[]): string {
  const add = (value: unknown) => `$${params.push(value)}`;
  if (group.kind === 'static') {
    return `select m.vehicle_id from mnt.vehicle_group_member m join mgt.vehicles v on v.id = m.vehicle_id where m.group_id = ${add(group.id)}`;
  }
  const f = group.filter ?? {};
  const where: string[] = ['true'];
  if (f.agencies?.length) where.push(`d.agency_id = any(${add(f.agencies)}::int[])`);
  if (f.depots?.length) where.push(`v.depot_id = any(${add(f.depots)}::int[])`);
  if (f.models?.length) where.push(`v.model = any(${add(f.models)}::text[])`);
  if (f.terminalTypes?.length)
    where.push(
      `exists (select 1 from mgt.dev_mnt t where t.vehicle_id = v.id and t."DevMNTType_id" = any(${add(f.terminalTypes)}::int[]))`,
    );
  if (f.configurations?.length) where.push(`coalesce(tc.configuration_id, 0) = any(${add(f.configurations)}::int[])`);
  return `select v.id as vehicle_id from mgt.vehicles v left join mgt.depot d on d.depot_id = v.depot_id
            left join mnt.terminal_config tc on tc.vehicle_id = v.id where ${where.join(' and ')}`;
}

export async function groupVehicles(db: Queryable, group: Group): Promise<number[]> {
  const params: unknown[] = [];
  const rows = await db.query<{ vehicle_id: number }>(`${groupVehiclesSql(group, params)} order by 1`, params);
  return rows.map((r) => r.vehicle_id);
}

/** The ids of the list that name no vehicle of the handbook, in the order given. */
export async function unknownVehicles(db: Queryable, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const known = new Set((await db.query<{ id: number }>('select id from mgt.vehicles where id = any($1::int[])', [ids])).map((r) => r.id));
  return ids.filter((id) => !known.has(id));
}

export async function findGroup(db: Queryable, id: number): Promise<Group | undefined> {
  const [row] = await db.query<Group>('select id, name, kind, filter from mnt.vehicle_group where id = $1', [id]);
  return row;
}
