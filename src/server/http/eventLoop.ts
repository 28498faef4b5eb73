import { setImmediate } from 'node:timers/promises';

/**
 * Rows an export formats between two turns of the event loop. A 5,000-row batch formatted in one go held the
 * event loop for 30–60 ms (more on a busy machine): every other user's request, the geo stream and EGTS
 * acknowledgements waited behind it.
 */
export const ROWS_PER_TURN = 500;

/** Lets the event loop serve what is waiting (I/O included) before the work goes on. */
export const nextTurn = (): Promise<void> => setImmediate();
