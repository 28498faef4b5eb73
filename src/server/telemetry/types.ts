/** One navigation fix of one vehicle, whichever way it arrived (EGTS, HTTP, simulator). */
export interface Position {
  vehicleId: number;
  /** Fix time, epoch milliseconds (UTC). */
  time: number;
  lat: number;
  lon: number;
  /** km/h */
  speed: number;
  /** degrees 0..359, clockwise from north */
  course: number;
  /** The receiver had a valid fix (EGTS VLD). */
  valid: boolean;
  /** Replayed from the terminal's black box (EGTS BB): goes to the track, never moves the latest position back. */
  history: boolean;
}

/** The latest known state of a vehicle, as the live map reads it. */
export interface LatestPosition {
  lat: number;
  lon: number;
  speed: number;
  course: number;
  /** Fix time, epoch milliseconds. */
  time: number;
  valid: boolean;
  /** When the server received it, epoch milliseconds. */
  receivedAt: number;
}

export interface PositionError {
  /** Index in the submitted batch. */
  index: number;
  field: string;
  message: string;
}

export interface IngestOutcome {
  accepted: number;
  /** Same vehicle and time seen before: dropped. */
  duplicates: number;
  rejected: PositionError[];
  /**
   * True once the accepted positions are durable (fsync'd to the track spool): the moment a sender may be
   * told they are received. False when the spool could not take them: no acknowledgement, the sender resends.
   * Never rejects.
   */
  durable: Promise<boolean>;
}
