import { createStore, useStoreValue } from '../../stores/createStore';
import type { ReplaySpeed, Track } from './replayMath';

/** The replay of previous data: the loaded track and its clock, shared by the panel and the track layer. */
export interface ReplayState {
  vehicleId: number | null;
  track: Track | null;
  /** The replay clock, epoch ms within the track. */
  time: number;
  playing: boolean;
  speed: ReplaySpeed;
}

export const replay = createStore<ReplayState>({ vehicleId: null, track: null, time: 0, playing: false, speed: 1 });
export const useReplayState = () => useStoreValue(replay);

export function setReplayTrack(track: Track | null): void {
  replay.set((s) => ({ ...s, track, time: track?.start ?? 0, playing: false }));
}

export function clearReplay(): void {
  replay.set((s) => ({ ...s, track: null, time: 0, playing: false }));
}
