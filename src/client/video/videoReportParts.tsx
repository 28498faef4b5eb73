import { Box, LinearProgress, Tooltip } from '@mui/material';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import type { ReportExtensions } from '../reports/reportExtensions';
import { VideoRequestActions } from './VideoRequestActions';

/** The video parts of the report scaffold: a request's actions, its status with the percent while downloading and its reason. */
export const videoReportParts: Partial<ReportExtensions> = {
  rowActions: { videoRequest: VideoRequestActions },
  cells: {
    // performed reads as viewed once played
    videoStatus: (value, row, translate) => {
      const label = translate(`video.statuses.${String(value)}`, { _: String(value) });
      const downloading = String(value) === '4';
      const text = downloading ? `${label} ${Math.round(Number(row.progress ?? 0))}%` : label;
      return (
        <Box component="span" data-testid="video-status" data-status={String(value)} sx={{ display: 'inline-block', minWidth: 110 }}>
          {row.reason ? (
            <Tooltip title={String(row.reason)}>
              <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
                {text}
                <InfoOutlinedIcon sx={{ fontSize: 15 }} color="action" />
              </Box>
            </Tooltip>
          ) : (
            text
          )}
          {downloading && <LinearProgress variant="determinate" value={Number(row.progress ?? 0)} sx={{ mt: 0.5 }} />}
        </Box>
      );
    },
  },
};
