import { useEffect, useRef, useState, type ReactNode } from 'react';
// The light build: no subtitles, alternate audio or DRM, which on-board cameras never carry (about half the size).
import Hls from 'hls.js/light';
import { Box, CircularProgress, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { withTimestamp, type PlayerState } from '../../shared/video/player';
import { HLS_CONFIG } from './hlsConfig';
import { RetryPolicy } from './retryPolicy';

interface VideoPlayerProps {
  /**
   * Resolves the stream's playUrl: asked again for every retry, since the address carries a signed token that
   * expires (a live tile plays for hours).
   */
  source: () => Promise<string>;
  /** Changes when the stream does (a new camera): the player starts over. */
  sourceKey: string;
  controls?: boolean;
  muted?: boolean;
  /** Playback position, seconds (the archive's clock reads it). */
  onTime?: (seconds: number) => void;
  /** Shown over the picture's top right (a camera's name, buttons). */
  overlay?: ReactNode;
  height?: number | string;
  testId?: string;
  /** A recording, not a live stream: its playing state reads «Запись». */
  recording?: boolean;
  /** The <video> element, for a screen that moves the position (the archive's time scale). */
  onVideo?: (element: HTMLVideoElement | null) => void;
}

const STATE_COLOURS: Record<PlayerState['kind'], string> = {
  loading: '#616161',
  playing: '#2e7d32',
  retrying: '#ed6c02',
  failed: '#d32f2f',
};

/**
 * One HLS stream in a <video> with hls.js and the retry rules of field-app.md section 4 (RetryPolicy): a
 * fatal error tears the player down and, 1 s later, loads the stream again from a fresh address with a time
 * stamp, up to 40 times in a row, then shows the red «no signal» state. Its state shows on the tile.
 */
export function VideoPlayer({
  source,
  sourceKey,
  controls = false,
  muted = true,
  onTime,
  overlay,
  height = '100%',
  testId,
  recording = false,
  onVideo,
}: VideoPlayerProps) {
  const translate = useTranslate();
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<PlayerState>({ kind: 'loading' });
  const sourceRef = useRef(source);
  sourceRef.current = source;

  useEffect(() => {
    const element = video.current;
    if (!element) return;
    let hls: Hls | null = null;
    let playing = false;
    let closed = false;
    setState({ kind: 'loading' });
    const stop = () => {
      hls?.destroy();
      hls = null;
    };
    const policy = new RetryPolicy(
      (attempt) => void load(attempt),
      (next) => {
        playing = next.kind === 'playing';
        if (!closed) setState(next);
      },
    );
    const play = (address: string) => {
      stop();
      if (Hls.isSupported()) {
        const player = new Hls(HLS_CONFIG);
        hls = player;
        player.on(Hls.Events.ERROR, (_event, data) => {
          if (!data.fatal || player !== hls) return;
          stop();
          policy.fatal();
        });
        player.on(Hls.Events.FRAG_BUFFERED, () => {
          if (!playing) policy.success();
        });
        player.loadSource(address);
        player.attachMedia(element);
      } else {
        element.src = address;
      }
      element.play().catch(() => undefined);
    };
    const load = async (attempt: number) => {
      try {
        const url = await sourceRef.current();
        if (!closed) play(attempt === 0 ? url : withTimestamp(url, Date.now()));
      } catch {
        if (!closed) policy.fatal();
      }
    };
    // A browser playing HLS natively (Safari) has no hls.js errors: its element's own error counts instead.
    const nativeError = () => {
      if (!hls) policy.fatal();
    };
    const nativePlaying = () => {
      if (!hls && !playing) policy.success();
    };
    element.addEventListener('error', nativeError);
    element.addEventListener('playing', nativePlaying);
    void load(0);
    return () => {
      closed = true;
      policy.dispose();
      stop();
      element.removeEventListener('error', nativeError);
      element.removeEventListener('playing', nativePlaying);
      element.removeAttribute('src');
    };
  }, [sourceKey]);

  const label =
    state.kind === 'retrying'
      ? translate('video.player.retrying', { attempt: state.attempt, of: state.of })
      : translate(`video.player.${state.kind === 'playing' && recording ? 'recording' : state.kind}`);
  return (
    <Box sx={{ position: 'relative', bgcolor: '#000', height, overflow: 'hidden', borderRadius: 1 }} data-testid={testId}>
      <video
        ref={(element) => {
          video.current = element;
          onVideo?.(element);
        }}
        muted={muted}
        playsInline
        controls={controls}
        onTimeUpdate={onTime ? (event) => onTime(event.currentTarget.currentTime) : undefined}
        style={{ width: '100%', height: '100%', objectFit: 'contain', display: 'block' }}
      />
      {state.kind === 'failed' && (
        <Box
          sx={{
            position: 'absolute',
            inset: 0,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            bgcolor: 'rgba(211,47,47,0.35)',
          }}
        >
          <Typography variant="h6" sx={{ color: '#fff', fontWeight: 600 }}>
            {translate('video.player.noSignal')}
          </Typography>
        </Box>
      )}
      {state.kind === 'loading' && (
        <Box sx={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
          <CircularProgress size={28} sx={{ color: '#fff' }} />
        </Box>
      )}
      <Box
        data-testid="video-state"
        data-state={state.kind}
        sx={{
          position: 'absolute',
          left: 6,
          top: 6,
          px: 0.75,
          py: 0.25,
          borderRadius: 1,
          fontSize: 12,
          color: '#fff',
          bgcolor: STATE_COLOURS[state.kind],
          display: 'flex',
          alignItems: 'center',
          gap: 0.5,
        }}
      >
        <Box component="span" sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: '#fff' }} />
        {label}
      </Box>
      {overlay && <Box sx={{ position: 'absolute', right: 6, top: 6, display: 'flex', gap: 0.5, alignItems: 'center' }}>{overlay}</Box>}
    </Box>
  );
}
