import type { Queryable } from '../db/types';
import type { HandbookSchema, WidgetField } from '../../shared/handbooks/types';
import { fail } from '../http/errors';
import { col } from './sqlNames';

/**
 * Widget fields that live in other tables. dvrCameras: a recorder's cameras as the list of camera type ids
 * (mgt.dev_camera, one row per camera type, index taken from the type), read in the list and replaced on
 * save. tripStops has its own endpoints (tripStops.ts) and no list value.
 */
export function widgetSelect(schema: HandbookSchema, field: WidgetField, alias: string): string | undefined {
  if (field.widget === 'dvrCameras') {
    return `(select coalesce(array_agg(c.camera_addr order by c.index, c.id), '{}') from mgt.dev_camera c where c.dvr_id = ${col(alias, schema.primaryKey)})`;
  }
  return undefined;
}

export function widgetFields(schema: HandbookSchema): WidgetField[] {
  return schema.fields.filter((field): field is WidgetField => field.kind === 'widget');
}

/** Saves the widget values present in an input row, after the row itself was saved. */
export async function saveWidgets(tx: Queryable, schema: HandbookSchema, id: unknown, input: Record<string, unknown>): Promise<void> {
  for (const field of widgetFields(schema)) {
    const value = input[field.name];
    if (field.widget !== 'dvrCameras' || value === undefined || value === null) continue;
    if (!Array.isArray(value) || !value.every((item) => Number.isInteger(Number(item)))) {
      throw fail(400, 'bad_request', `${field.name}: camera type ids expected`);
    }
    const types = [...new Set(value.map(Number))];
    await tx.query('delete from mgt.dev_camera where dvr_id = $1 and camera_addr <> all($2::int[])', [id, types]);
    await tx.query(
      `insert into mgt.dev_camera (index, dvr_id, camera_addr)
       select ct.index, $1, ct.ip from mgt.dev_camera_type ct
        where ct.ip = any($2::int[]) and not exists (select 1 from mgt.dev_camera c where c.dvr_id = $1 and c.camera_addr = ct.ip)`,
      [id, types],
    );
  }
}
