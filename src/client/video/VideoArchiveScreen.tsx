import { useRef, useState } from 'react';
import { Box, Button, Card, CardContent, Slider, Tab, Tabs, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import CloseIcon from '@mui/icons-material/Close';
import { useSearchParams } from 'react-router';
import { useTranslate } from 'react-admin';
import { formatClock, formatDateTime } from '../../shared/format';
import { VIDEO_ARCHIVE } from '../../shared/reports/video';
import type { ArchivePlayback } from '../../shared/video/api';
import { downloadFile } from '../components/downloadFile';
import { ReportPage } from '../reports/ReportScreen';
import { useApiQuery } from '../../web/providers/queries';
import { VideoPlayer } from '../../web/video/VideoPlayer';
import { archiveDownloadUrl, archiveRequest, playArchive } from '../../web/video/videoApi';

type Timeline = ArchivePlayback['timeline'];

/** The clock time (epoch ms) of a position in the recording: the recording may have gaps. */
export function clockAt(timeline: Timeline, seconds: number): number | undefined {
  const piece = timeline.find((p) => seconds >= p.offset && seconds < p.offset + p.duration) ?? timeline.at(-1);
  return piece ? Date.parse(piece.start) + (Math.min(seconds, piece.offset + piece.duration) - piece.offset) * 1000 : undefined;
}

/** One performed request's recording: camera tabs, the player, its clock-time scale, download. */
function ArchivePlayer({ requestId, onClose }: { requestId: number; onClose: () => void }) {
  const translate = useTranslate();
  const { data: request } = useApiQuery(['video', 'archive-request', requestId], () => archiveRequest(requestId));
  // null: the request's first camera
  const [chosen, setCamera] = useState<number | null>(null);
  const camera = chosen ?? request?.cameras[0] ?? null;
  const [timeline, setTimeline] = useState<Timeline>([]);
  const [position, setPosition] = useState(0);
  const element = useRef<HTMLVideoElement | null>(null);
  if (!request || camera === null) return null;
  const total = timeline.reduce((sum, p) => sum + p.duration, 0);
  const clock = clockAt(timeline, position);
  const marks = timeline.map((p) => ({ value: p.offset, label: formatClock(p.start, { seconds: false }) }));
  return (
    <Card variant="outlined" sx={{ mb: 2 }} data-testid="video-archive-player">
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 1, flexWrap: 'wrap' }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
            {translate('video.archive.request', { id: request.id, vehicle: request.depotNumber ?? request.vehicleId })}
          </Typography>
          <Typography
            variant="body2"
            color="text.secondary"
          >{`${formatDateTime(request.from)} — ${formatDateTime(request.to)}`}</Typography>
          <Box sx={{ flex: 1 }} />
          <Button
            size="small"
            startIcon={<DownloadIcon />}
            data-testid="video-download"
            onClick={() =>
              void downloadFile(archiveDownloadUrl(request.id, camera), `video-${request.id}-camera-${camera}.ts`).catch(() => undefined)
            }
          >
            {translate('video.archive.download')}
          </Button>
          <Button size="small" startIcon={<CloseIcon />} onClick={onClose}>
            {translate('video.archive.close')}
          </Button>
        </Box>
        <Tabs value={camera} onChange={(_, next: number) => setCamera(next)} sx={{ mb: 1 }}>
          {request.cameras.map((index) => (
            <Tab key={index} value={index} label={translate('video.archive.camera', { index })} />
          ))}
        </Tabs>
        <VideoPlayer
          testId="video-archive-video"
          recording
          controls
          height={420}
          sourceKey={`${request.id}-${camera}`}
          source={async () => {
            const playback = await playArchive(request.id, camera);
            setTimeline(playback.timeline);
            return playback.playUrl;
          }}
          onTime={setPosition}
          onVideo={(video) => {
            element.current = video;
          }}
        />
        <Box sx={{ px: 2, pt: 1 }}>
          <Typography variant="body2" data-testid="video-archive-clock">
            {`${translate('video.archive.clock')}: ${clock ? formatDateTime(new Date(clock)) : '—'}`}
          </Typography>
          <Slider
            size="small"
            min={0}
            max={Math.max(1, total)}
            step={1}
            value={Math.min(position, total)}
            marks={marks}
            valueLabelDisplay="auto"
            valueLabelFormat={(value) => {
              const at = clockAt(timeline, value);
              return at ? formatClock(new Date(at)) : '';
            }}
            onChange={(_, value) => {
              if (element.current) element.current.currentTime = value as number;
              setPosition(value as number);
            }}
          />
        </Box>
      </CardContent>
    </Card>
  );
}

/**
 * /video/archive (SCREENS.md, "Video"): the performed requests (a declared list), and the chosen one
 * (?play=<id>) played as recorded video on a scale of real clock time, with download. The first playback
 * marks the request viewed.
 */
export default function VideoArchiveScreen() {
  const translate = useTranslate();
  const [search, setSearch] = useSearchParams();
  const play = Number(search.get('play')) || undefined;
  const close = () => {
    const next = new URLSearchParams(search);
    next.delete('play');
    setSearch(next);
  };
  return (
    <>
      <Box sx={{ px: 2, pt: 2 }}>
        {play ? (
          <ArchivePlayer key={play} requestId={play} onClose={close} />
        ) : (
          <Typography color="text.secondary">{translate('video.archive.choose')}</Typography>
        )}
      </Box>
      <ReportPage report={VIDEO_ARCHIVE} />
    </>
  );
}
