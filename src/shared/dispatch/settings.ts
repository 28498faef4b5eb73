/**
 * Thresholds of the live timetable (navigation settings, /system/navigation): when a vehicle counts as late or
 * early, bunched or gapped, off its route (the navigation settings' `maxCenterDeviation`, metres), without a
 * signal; when an exit counts as not started and a run as not performed. Each takes effect at once.
 */
export interface DispatchSettings {
  /** Late beyond this many seconds behind the timetable. */
  lateSeconds: number;
  /** Early beyond this many seconds ahead of it. */
  earlySeconds: number;
  /** Bunching: the headway to the vehicle ahead under this share of the scheduled one, %. */
  bunchingPercent: number;
  /** Gap: the headway over this share of the scheduled one, %. */
  gapPercent: number;
  /** A vehicle within this many metres of a stop (along its trajectory) is at the stop. */
  stopRadiusMeters: number;
  /** Off the route: farther than the allowed deviation from the run's trajectory this long, s. */
  offRouteSeconds: number;
  /** No signal: a vehicle in service silent this long, s. */
  noSignalSeconds: number;
  /** An exit not started this long after its first scheduled departure, s. */
  exitStartSeconds: number;
  /** A run without a single stop passage this long after its scheduled end is not performed, s. */
  runMissedSeconds: number;
}

export const DISPATCH_DEFAULTS: DispatchSettings = {
  lateSeconds: 180,
  earlySeconds: 60,
  bunchingPercent: 30,
  gapPercent: 180,
  stopRadiusMeters: 40,
  offRouteSeconds: 60,
  noSignalSeconds: 300,
  exitStartSeconds: 300,
  runMissedSeconds: 900,
};
