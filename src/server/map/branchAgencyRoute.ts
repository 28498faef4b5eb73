import type { FastifyInstance } from 'fastify';
import type { BranchAgency } from '../../shared/map';
import { MAP_READ } from './queryParams';

/** Agencies, depots (branches) and territorial departments with their coordinates: the map's organisation layers. */
export default async function branchAgencyRoute(app: FastifyInstance): Promise<void> {
  app.get(
    '/api/v1/map/branchagency',
    {
      config: MAP_READ,
      schema: { tags: ['map'], summary: 'Предприятия, филиалы и территориальные отделы с адресами, телефонами и координатами' },
    },
    async (): Promise<BranchAgency> => {
      const [agencies, depots, departments] = await Promise.all([
        app.db.query<BranchAgency['agencies'][number]>(
          'select agency_id as id, title, address, phone, ag_lat as lat, ag_lon as lon from mgt.agency order by title, agency_id',
        ),
        app.db.query<BranchAgency['depots'][number]>(
          'select depot_id as id, depot_name as title, address, phone, agency_id, dp_lat as lat, dp_lon as lon from mgt.depot order by depot_name, depot_id',
        ),
        app.db.query<BranchAgency['departments'][number]>(
          'select td_id as id, td_name as title, td_adress as address, td_phone as phone, td_color as color, td_lat as lat, td_lon as lon from cat.department order by td_name, td_id',
        ),
      ]);
      return { agencies, depots, departments };
    },
  );
}
