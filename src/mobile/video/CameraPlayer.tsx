import { useRef, useState } from 'react';
import { Box, IconButton, Tooltip } from '@mui/material';
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import VolumeOffIcon from '@mui/icons-material/VolumeOff';
import VolumeUpIcon from '@mui/icons-material/VolumeUp';
import { VideoPlayer } from '../../web/video/VideoPlayer';
import { useT } from '../../web/i18n/translate';

/**
 * The single-camera tab's player (field-app spec 2.4): the console's player with its retry rules, a mute
 * toggle (muted at first: browsers only autoplay silent video) and fullscreen, which a route change leaves.
 */
export function CameraPlayer({ sourceKey, source }: { sourceKey: string; source: () => Promise<string> }) {
  const t = useT();
  const [muted, setMuted] = useState(true);
  const frame = useRef<HTMLDivElement>(null);
  const fullscreen = () => {
    const element = frame.current;
    if (element && !document.fullscreenElement) void element.requestFullscreen?.().catch(() => undefined);
    else if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
  };
  return (
    <Box
      ref={frame}
      sx={{ position: 'relative', bgcolor: '#000', aspectRatio: '16 / 9', width: '100%', '&:fullscreen': { aspectRatio: 'auto' } }}
    >
      <VideoPlayer
        testId="video-single"
        sourceKey={sourceKey}
        source={source}
        muted={muted}
        overlay={
          <>
            <Tooltip title={t(muted ? 'mobile.video.unmute' : 'mobile.video.mute')}>
              <IconButton
                size="small"
                onClick={() => setMuted(!muted)}
                sx={{ color: '#fff', bgcolor: 'rgba(0,0,0,0.5)' }}
                data-testid="video-mute"
                data-muted={muted}
              >
                {muted ? <VolumeOffIcon fontSize="small" /> : <VolumeUpIcon fontSize="small" />}
              </IconButton>
            </Tooltip>
            <Tooltip title={t('mobile.video.fullscreen')}>
              <IconButton
                size="small"
                onClick={fullscreen}
                sx={{ color: '#fff', bgcolor: 'rgba(0,0,0,0.5)' }}
                data-testid="video-fullscreen"
              >
                <FullscreenIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          </>
        }
      />
    </Box>
  );
}
