import { Box, Button, LinearProgress, Step, StepLabel, Stepper, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';

export const STAGES = ['upload', 'check', 'write'] as const;
export type RunStage = (typeof STAGES)[number] | 'end';

/**
 * Where an import stands: the stages upload, check and write, the share done of the current one (none known
 * while the feed is checked), and a Cancel button while it can still be stopped.
 */
export function GtfsRunStages({
  stage,
  percent,
  onCancel,
  cancelling,
}: {
  stage: RunStage;
  /** 0–100, or null when the stage does not say how far it is. */
  percent: number | null;
  onCancel?: () => void;
  cancelling?: boolean;
}) {
  const translate = useTranslate();
  const active = stage === 'end' ? STAGES.length : STAGES.indexOf(stage);
  return (
    <Box data-testid="gtfs-stage" data-stage={stage} sx={{ my: 2, maxWidth: 720 }}>
      <Stepper activeStep={active}>
        {STAGES.map((s) => (
          <Step key={s}>
            <StepLabel>{translate(`gtfs.stages.${s}`)}</StepLabel>
          </Step>
        ))}
      </Stepper>
      {stage !== 'end' && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mt: 2 }}>
          <Box sx={{ flex: 1 }}>
            <LinearProgress variant={percent === null ? 'indeterminate' : 'determinate'} value={percent ?? 0} data-testid="gtfs-progress" />
            {stage === 'upload' && percent !== null && (
              <Typography variant="caption">{translate('gtfs.uploading', { percent })}</Typography>
            )}
          </Box>
          {onCancel && (
            <Button variant="outlined" color="warning" onClick={onCancel} disabled={cancelling} data-testid="gtfs-cancel">
              {translate('gtfs.cancel')}
            </Button>
          )}
        </Box>
      )}
    </Box>
  );
}
