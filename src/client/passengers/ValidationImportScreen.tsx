import { useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { Alert, Box, Button, LinearProgress, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import DownloadIcon from '@mui/icons-material/Download';
import { useLocale, useTranslate } from 'react-admin';
import { translateMessage, type Locale } from '../../shared/errors';
import { IMPORT_API, VALIDATION_COLUMNS, type ValidationImportResult } from '../../shared/passengers/passengers';
import { VALIDATION_IMPORTS } from '../../shared/reports/passengers';
import { downloadFile } from '../components/downloadFile';
import { useRights } from '../../web/components/useRights';
import { uploadFile } from '../handbooks/uploadFile';
import { HttpError, isAbortError } from '../../web/providers/httpClient';
import { ReportPage } from '../reports/ReportScreen';

type Stage =
  | { step: 'idle' }
  | { step: 'uploading'; percent: number }
  | { step: 'applying' }
  | { step: 'done'; result: ValidationImportResult }
  | { step: 'failed'; messages: string[]; result?: ValidationImportResult };

/** The refused rows of a file: line, column, reason. */
function RefusedRows({ result }: { result: ValidationImportResult }) {
  const translate = useTranslate();
  if (!result.errors.length) return null;
  return (
    <Table size="small" data-testid="import-errors" sx={{ mt: 1, maxWidth: 900 }}>
      <TableHead>
        <TableRow>
          <TableCell>{translate('reports.passengers.upload.line')}</TableCell>
          <TableCell>{translate('reports.passengers.upload.column')}</TableCell>
          <TableCell>{translate('reports.passengers.upload.reason')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {result.errors.map((e) => (
          <TableRow key={`${e.line}-${e.column}`}>
            <TableCell>{e.line}</TableCell>
            <TableCell>{e.column}</TableCell>
            <TableCell>{e.reason}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The download of an import's refused rows (the file's cells, then line, column and reason). */
function RefusedRowsFile({ importId }: { importId: number }) {
  const translate = useTranslate();
  return (
    <Button
      size="small"
      sx={{ mt: 1 }}
      startIcon={<DownloadIcon />}
      data-testid="import-refused-file"
      onClick={() => void downloadFile(`${IMPORT_API}/${importId}/refused`, `validations-${importId}-refused.csv`).catch(() => undefined)}
    >
      {translate('reports.passengers.upload.refusedFile')}
    </Button>
  );
}

/** The upload of a validation file: choose, a progress bar while it streams, then the outcome. */
function ValidationUpload({
  stage,
  setStage,
  onImported,
}: {
  stage: Stage;
  setStage: Dispatch<SetStateAction<Stage>>;
  onImported: () => void;
}) {
  const translate = useTranslate();
  const locale = useLocale() as Locale;
  const { create: canCreate } = useRights(VALIDATION_IMPORTS.path);
  const input = useRef<HTMLInputElement>(null);
  const upload = useRef<AbortController | null>(null);
  useEffect(() => () => upload.current?.abort(), []);
  if (!canCreate) return null;

  const start = async (file: File | undefined) => {
    if (!file) return;
    const controller = new AbortController();
    upload.current = controller;
    setStage({ step: 'uploading', percent: 0 });
    try {
      const result = await uploadFile<ValidationImportResult>(`${IMPORT_API}?file=${encodeURIComponent(file.name)}`, file, 'text/csv', {
        signal: controller.signal,
        onProgress: (loaded, total) =>
          setStage((now) =>
            now.step === 'uploading' ? { step: 'uploading', percent: total ? Math.round((loaded / total) * 100) : 0 } : now,
          ),
        onUploaded: () => setStage((now) => (now.step === 'uploading' ? { step: 'applying' } : now)),
      });
      setStage({ step: 'done', result });
    } catch (error) {
      if (isAbortError(error)) setStage({ step: 'idle' });
      else {
        const body = error instanceof HttpError ? (error.body as { result?: ValidationImportResult } | null) : null;
        setStage({ step: 'failed', messages: error instanceof HttpError ? error.messages : [], result: body?.result });
      }
    } finally {
      upload.current = null;
      if (input.current) input.current.value = '';
      onImported();
    }
  };
  const working = stage.step === 'uploading' || stage.step === 'applying';
  return (
    <Box sx={{ width: '100%', order: 10 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Button component="label" variant="contained" size="small" startIcon={<UploadFileIcon />} disabled={working}>
          {translate('reports.passengers.upload.choose')}
          <input
            ref={input}
            type="file"
            accept=".csv,text/csv"
            hidden
            data-testid="validation-import-file"
            onChange={(event) => void start(event.target.files?.[0])}
          />
        </Button>
        <Typography variant="caption" color="text.secondary">
          {translate('reports.passengers.upload.format', { columns: VALIDATION_COLUMNS.join(';') })}
        </Typography>
      </Box>
      {stage.step === 'uploading' && (
        <Box sx={{ mt: 1, maxWidth: 600 }} data-testid="import-progress">
          <LinearProgress variant="determinate" value={stage.percent} />
          <Typography variant="caption">{translate('reports.passengers.upload.uploading', { percent: stage.percent })}</Typography>
        </Box>
      )}
      {stage.step === 'applying' && (
        <Box sx={{ mt: 1, maxWidth: 600 }} data-testid="import-progress">
          <LinearProgress />
          <Typography variant="caption">{translate('reports.passengers.upload.applying')}</Typography>
        </Box>
      )}
      {stage.step === 'done' && (
        <Box sx={{ mt: 1 }}>
          <Alert severity={stage.result.refused ? 'warning' : 'success'} data-testid="import-result">
            {translate('reports.passengers.upload.done', {
              rows: stage.result.rows,
              added: stage.result.added,
              skipped: stage.result.skipped,
            })}
            {stage.result.refused ? ` ${translate('reports.passengers.upload.refused', { refused: stage.result.refused })}` : ''}
          </Alert>
          {stage.result.refused > 0 && <RefusedRowsFile importId={stage.result.id} />}
          <RefusedRows result={stage.result} />
        </Box>
      )}
      {stage.step === 'failed' && (
        <Box sx={{ mt: 1 }}>
          <Alert severity="error" data-testid="import-result">
            {(stage.messages.length ? stage.messages : ['internal_error']).map((m) => translateMessage(m, locale)).join(' ')}
            {stage.result?.refused ? ` ${translate('reports.passengers.upload.refused', { refused: stage.result.refused })}` : ''}
          </Alert>
          {stage.result && <RefusedRows result={stage.result} />}
        </Box>
      )}
    </Box>
  );
}

/**
 * /import-data/tickets-validation (permission code 33): the upload of a fare system's validation file, and
 * the import history as a declared report under it (who, when, file, rows added, skipped and refused).
 */
export default function ValidationImportScreen() {
  const [version, setVersion] = useState(0);
  // the upload's outcome outlives the history's reload (a new key after each import)
  const [stage, setStage] = useState<Stage>({ step: 'idle' });
  return (
    <ReportPage
      key={version}
      report={VALIDATION_IMPORTS}
      toolbar={<ValidationUpload stage={stage} setStage={setStage} onImported={() => setVersion((n) => n + 1)} />}
    />
  );
}
