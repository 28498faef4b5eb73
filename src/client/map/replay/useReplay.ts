import { useEffect } from 'react';
import { advance, positionAt, type ReplaySpeed } from '../../../web/map/replay/replayMath';
import { useReplayState, useReplayStore } from '../../../web/map/replay/replayState';

/**
 * The replay clock: while playing it advances with the wall clock times the speed (×1…×64) on animation
 * frames and stops at the track's end; play at the end starts over.
 */
export function useReplay() {
  const replay = useReplayStore();
  const state = useReplayState();
  const { track, playing } = state;

  useEffect(() => {
    if (!playing || !track) return;
    let frame = 0;
    let last = performance.now();
    const tick = (now: number) => {
      const elapsed = now - last;
      last = now;
      replay.set((s) => {
        const time = advance(track, s.time, elapsed, s.speed);
        return { ...s, time, playing: time < track.end };
      });
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [replay, playing, track]);

  return {
    ...state,
    position: track ? positionAt(track, state.time) : null,
    play: () => replay.set((s) => (s.track ? { ...s, playing: true, time: s.time >= s.track.end ? s.track.start : s.time } : s)),
    pause: () => replay.set((s) => ({ ...s, playing: false })),
    seek: (time: number) => replay.set((s) => (s.track ? { ...s, time: Math.min(s.track.end, Math.max(s.track.start, time)) } : s)),
    setSpeed: (speed: ReplaySpeed) => replay.set((s) => ({ ...s, speed })),
  };
}
