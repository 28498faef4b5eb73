import { useRef, useState } from 'react';
import { Alert, Box, Button } from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { useLocale, useTranslate } from 'react-admin';
import { translateMessage, type Locale } from '../../shared/errors';
import { HttpError, isAbortError } from '../../web/providers/httpClient';
import { useUploadFeed } from './gtfsApi';
import { GtfsRunStages } from './GtfsRunStages';

/**
 * Choosing a .zip and sending it, with the upload's own progress and a Cancel that stops the transfer; once the
 * server has the whole file it answers with the run, which the screen then follows (`onStarted`).
 */
export function GtfsUpload({ disabled, onStarted }: { disabled: boolean; onStarted: (id: number) => void }) {
  const translate = useTranslate();
  const locale = useLocale() as Locale;
  const [percent, setPercent] = useState(0);
  const transfer = useRef<AbortController | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadFeed(setPercent);

  const start = (file: File | undefined) => {
    if (!file) return;
    const controller = new AbortController();
    transfer.current = controller;
    setPercent(0);
    upload.mutate(
      { file, signal: controller.signal },
      {
        onSuccess: ({ id }) => onStarted(id),
        onSettled: () => {
          if (input.current) input.current.value = '';
        },
      },
    );
  };
  const failure = upload.error && !isAbortError(upload.error) ? upload.error : null;
  return (
    <>
      <Button component="label" variant="contained" startIcon={<UploadFileIcon />} disabled={disabled || upload.isPending}>
        {translate('gtfs.choose')}
        <input
          ref={input}
          hidden
          type="file"
          accept=".zip,application/zip"
          data-testid="gtfs-file"
          onChange={(e) => start(e.target.files?.[0])}
        />
      </Button>
      {upload.isPending && (
        <Box sx={{ width: '100%' }} data-testid="gtfs-upload">
          <GtfsRunStages stage="upload" percent={percent} onCancel={() => transfer.current?.abort()} />
        </Box>
      )}
      {failure && (
        <Alert severity="error" sx={{ width: '100%' }} data-testid="gtfs-upload-error">
          {translate('gtfs.uploadFailed', {
            reason:
              failure instanceof HttpError && failure.messages.length
                ? failure.messages.map((m) => translateMessage(m, locale)).join(' ')
                : translateMessage('internal_error', locale),
          })}
        </Alert>
      )}
    </>
  );
}
