import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AddCamerasResponse } from '../../shared/handbooks/api';
import { fail } from '../http/errors';

/**
 * POST /api/widget/addcamersvehicle (the camera handbook's add-vehicle widget): gives each listed
 * vehicle's recorder(s) the standard camera set, one camera per camera type with the type's index, keeping
 * cameras already there. All or nothing: a vehicle without a recorder, or no camera types at all, refuses
 * the request with dvr_or_camera_not_found and adds nothing.
 */
export async function addCamerasToVehicles(
  app: FastifyInstance,
  request: FastifyRequest,
  vehicleIds: number[],
): Promise<AddCamerasResponse> {
  const ids = [...new Set(vehicleIds)];
  if (!ids.length) throw fail(400, 'bad_request');
  return app.db.transaction(async (tx) => {
    const recorders = await tx.query<{ id: number; vehicle_id: number }>(
      'select id, vehicle_id from mgt.dvr where vehicle_id = any($1::int[])',
      [ids],
    );
    const equipped = new Set(recorders.map((recorder) => recorder.vehicle_id));
    const [{ n: types }] = await tx.query<{ n: number }>('select count(*)::int as n from mgt.dev_camera_type');
    if (ids.some((id) => !equipped.has(id)) || types === 0) throw fail(400, 'dvr_or_camera_not_found');
    const added = await tx.query<{ id: number; dvr_id: number; camera_addr: number }>(
      `insert into mgt.dev_camera (index, dvr_id, camera_addr)
       select ct.index, d.id, ct.ip from mgt.dvr d cross join mgt.dev_camera_type ct
        where d.vehicle_id = any($1::int[])
          and not exists (select 1 from mgt.dev_camera c where c.dvr_id = d.id and c.camera_addr = ct.ip)
        order by d.id, ct.index
       returning id, dvr_id, camera_addr`,
      [ids],
    );
    await app.journal.record(request, { action: 'handbook.create', object: 'camera', after: { veh_list: ids, added } }, tx);
    return { vehicles: ids.length, recorders: recorders.length, added: added.length };
  });
}
