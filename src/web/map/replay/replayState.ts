import { createContext, createElement, useContext, type ReactNode } from 'react';
import { createStore, useStoreValue, type Store } from '../../stores/createStore';
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

export type ReplayStore = Store<ReplayState>;

/** A screen with a track replay creates its replay once and provides it with ReplayStateProvider. */
export function createReplayState(): ReplayStore {
  return createStore<ReplayState>({ vehicleId: null, track: null, time: 0, playing: false, speed: 1 });
}

const ReplayContext = createContext<ReplayStore | null>(null);

export function ReplayStateProvider({ replay, children }: { replay: ReplayStore; children?: ReactNode }) {
  return createElement(ReplayContext.Provider, { value: replay }, children);
}

/** The replay of the screen around the caller. */
export function useReplayStore(): ReplayStore {
  const replay = useContext(ReplayContext);
  if (!replay) throw new Error('useReplayStore() outside a ReplayStateProvider');
  return replay;
}

export const useReplayState = () => useStoreValue(useReplayStore());

export function setReplayTrack(replay: ReplayStore, track: Track | null): void {
  replay.set((s) => ({ ...s, track, time: track?.start ?? 0, playing: false }));
}

export function clearReplay(replay: ReplayStore): void {
  replay.set((s) => ({ ...s, track: null, time: 0, playing: false }));
}
