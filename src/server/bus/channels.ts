/**
 * Every message that crosses between server processes, by channel: declared here once, typed at both ends.
 * Payloads are JSON. A process never receives its own messages (it has applied the change itself).
 */

/** [vehicleId, time, lat, lon, speed, course, valid, history]: compact on the wire. */
export type WirePosition = [number, number, number, number, number, number, 0 | 1, 0 | 1];

/** A cached entry another process changed: every process forgets it and reads it again when asked. */
export type CacheInvalidation =
  | { kind: 'settings' }
  /** A logout: the session of this token hash. */
  | { kind: 'session'; tokenHash: string }
  /** A user blocked, deleted, renamed, given a new password or roles: the user's sessions and document. */
  | { kind: 'user'; userId: number }
  /** The current-user document only (saved columns, map position). */
  | { kind: 'profile'; userId: number }
  /** A role or its permissions: every session and document. */
  | { kind: 'roles' }
  /** An area's in-memory directory read from its handbooks: read it again. */
  | { kind: 'directory'; name: 'pdm.nodes' | 'map.vehicles' };

/** An EGTS command on the wire: CommandData with its bytes in base64. */
export interface WireCommand {
  ct: number;
  cct: number;
  cid: number;
  sid: number;
  chs?: number;
  ac?: string;
  adr?: number;
  ccd?: number;
  act?: number;
  sz?: number;
  data: string;
}

/** A terminal's confirmation of a command on the wire (its data in base64). */
export interface WireConfirmation {
  vehicleId: number;
  cid: number;
  cct: number;
  ccd: number;
  adr: number;
  data: string;
  at: number;
}

/** A terminal's information message on the wire (its data in base64). */
export interface WireTerminalMessage {
  vehicleId: number;
  ct: number;
  cct: number;
  cid: number;
  chs: number | null;
  data: string;
  at: number;
}

/** One-way messages, each delivered to every other process. */
export interface BusChannels {
  /** Positions accepted by one process (every fix of its ingest calls): the others' latest state and live timetable. */
  positions: WirePosition[];
  cache: CacheInvalidation;
  /** An exception of the live timetable acknowledged in one process (its row is stored): the others mark it too. */
  'dispatch.ack': { key: string; since: number; at: number; userId: number; username: string; comment: string };
  /** The terminals a process reaches: its whole list now and then, and those that came and went since. */
  terminals: { all?: number[]; attached?: number[]; detached?: number[] };
  /** Commands for terminals connected to process `to`, from the rollout dispatcher's process. */
  'terminals.send': { to: string; items: [vehicleId: number, commands: WireCommand[]][] };
  /** What a process's terminals answered to commands (the dispatcher's process applies them). */
  'terminals.confirmations': WireConfirmation[];
  /** The drivers' messages and the answers to ours that a process's terminals sent (the courier's process applies them). */
  'terminals.messages': WireTerminalMessage[];
  /** A service change of the live timetable stored in one process: the others read the day's changes again. */
  'dispatch.changes': { serviceDate: string };
  /** A driver's message stored in one process: the others raise it on their boards. */
  'dispatch.driverMessage': { id: number; vehicleId: number; text: string; at: number };
  /** A service alert written, published or ended in one process: the others' Alerts feed is made again. */
  'dispatch.alerts': { id: number };
}

/**
 * Questions one process asks the others, and the answer of the one concerned. The others answer null ("not
 * mine"), so the asker knows at once when nobody holds what it asks about.
 */
export interface BusRequests {
  /** Move a geo stream to another view: answered by the process that holds the stream. */
  'geo.move': { ask: { streamId: string; userId: number; q: string }; answer: 'ok' | 'forbidden' };
}

export type Channel = keyof BusChannels;
export type RequestChannel = keyof BusRequests;
