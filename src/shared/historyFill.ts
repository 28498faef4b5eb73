/**
 * How far the demo history's background fill has come (GET /api/health, `history`): days of history written
 * (or found there) of all the days the fills will write. Reports over older periods read partial data until
 * `complete`; the newest days are filled first, so the default periods are whole soonest.
 */
export interface HistoryFillStatus {
  complete: boolean;
  daysDone: number;
  daysTotal: number;
}
