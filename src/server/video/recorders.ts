import type { Queryable } from '../db/types';

/** A vehicle's recorder (handbook dvr) with its cameras (handbook camera, titles from camera types). */
export interface Recorder {
  vehicleId: number;
  depotNumber: number | null;
  stateNumber: string | null;
  model: string | null;
  dvrId: number;
  serialNumber: string | null;
  ip: string | null;
  port: number | null;
  login: string | null;
  password: string | null;
  mediaServer: { ip: string; port: number; login: string; password: string } | null;
  /** By camera index (the number the grid and the API use); position: the camera type's index. */
  cameras: { index: number; title: string; position: number }[];
}

interface RecorderRow {
  vehicle_id: number;
  depot_number: number | null;
  state_number: string | null;
  model: string | null;
  dvr_id: number;
  serial_number: string | null;
  ip: string | null;
  port: number | null;
  login: string | null;
  password: string | null;
  media_server_ip: string | null;
  media_server_port: number | null;
  media_server_login: string | null;
  media_server_password: string | null;
  cameras: { index: number; title: string | null; position: number | null }[];
}

const filled = (value: string | number | null): boolean => value !== null && String(value).trim() !== '';

/** The recorder-with-cameras select; `where` picks vehicles or recorders. */
export const RECORDER_SQL = (where: string) => `
  select distinct on (v.id) v.id as vehicle_id, v.depot_number, v.state_number, v.model, d.id as dvr_id, d.serial_number, d.ip, d.port,
         d.login, d.password, d.media_server_ip, d.media_server_port, d.media_server_login, d.media_server_password,
         (select coalesce(json_agg(json_build_object('index', c.index, 'title', t.title, 'position', t.index) order by c.index, c.id), '[]'::json)
            from mgt.dev_camera c left join mgt.dev_camera_type t on t.ip = c.camera_addr where c.dvr_id = d.id) as cameras
    from mgt.vehicles v join mgt.dvr d on d.vehicle_id = v.id
   where ${where}
   order by v.id, (exists (select 1 from mgt.dev_camera c where c.dvr_id = d.id)) desc, d.id`;

export function recorderOf(row: RecorderRow): Recorder {
  const ms = [row.media_server_ip, row.media_server_port, row.media_server_login, row.media_server_password];
  // Cameras with the same index (an import may repeat one) count once.
  const seen = new Set<number>();
  const cameras = (typeof row.cameras === 'string' ? (JSON.parse(row.cameras) as RecorderRow['cameras']) : row.cameras)
    .filter((c) => !seen.has(c.index) && seen.add(c.index))
    .map((c) => ({ index: c.index, title: c.title ?? `Камера ${c.index}`, position: c.position ?? c.index }));
  return {
    vehicleId: row.vehicle_id,
    depotNumber: row.depot_number,
    stateNumber: row.state_number,
    model: row.model,
    dvrId: row.dvr_id,
    serialNumber: row.serial_number,
    ip: row.ip,
    port: row.port,
    login: row.login,
    password: row.password,
    // The spec's rule: the media server is used when its address, port, login and password are all set.
    mediaServer: ms.every(filled)
      ? { ip: row.media_server_ip!, port: row.media_server_port!, login: row.media_server_login!, password: row.media_server_password! }
      : null,
    cameras,
  };
}

/** The vehicle's recorder (the one with cameras first); undefined when it has none. */
export async function findRecorder(db: Queryable, vehicleId: number): Promise<Recorder | undefined> {
  const [row] = await db.query<RecorderRow>(RECORDER_SQL('v.id = $1'), [vehicleId]);
  return row ? recorderOf(row) : undefined;
}

/** Recorders of many vehicles at once (the worker's tick). */
export async function findRecorders(db: Queryable, vehicleIds: number[]): Promise<Map<number, Recorder>> {
  if (!vehicleIds.length) return new Map();
  const rows = await db.query<RecorderRow>(RECORDER_SQL('v.id = any($1::int[])'), [vehicleIds]);
  return new Map(rows.map((row) => [row.vehicle_id, recorderOf(row)]));
}

export interface UpstreamAddress {
  /** With credentials where the template asks for them: used by the server only. */
  url: string;
  /** The same with any credential masked: what the API may show. */
  shown: string;
  /** HTTP Basic authorisation for the media server. */
  authorization: string;
}

/**
 * A media server's address from the template of /system/video: {ip}, {port}, {serial}, {dvr}, {vehicle},
 * {camera}, {from}, {to} (ISO), {login}, {password}. Credentials also travel as HTTP Basic authorisation.
 */
export function mediaServerAddress(
  template: string,
  recorder: Recorder,
  camera: number,
  period?: { from: string; to: string },
): UpstreamAddress {
  const ms = recorder.mediaServer!;
  const values: Record<string, string> = {
    ip: ms.ip,
    port: String(ms.port),
    serial: recorder.serialNumber ?? '',
    dvr: String(recorder.dvrId),
    vehicle: String(recorder.vehicleId),
    camera: String(camera),
    from: period?.from ?? '',
    to: period?.to ?? '',
  };
  const fill = (secret: (name: 'login' | 'password') => string) =>
    template.replace(/\{(\w+)\}/g, (whole, name: string) => {
      if (name === 'login' || name === 'password') return secret(name);
      return name in values ? encodeURIComponent(values[name]) : whole;
    });
  return {
    url: fill((name) => encodeURIComponent(ms[name])),
    shown: fill(() => '***'),
    authorization: `Basic ${Buffer.from(`${ms.login}:${ms.password}`).toString('base64')}`,
  };
}
