import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Link,
  LinearProgress,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { useRefresh, useTranslate } from 'react-admin';
import type { AppointResponse, ImportResponse } from '../../shared/handbooks/api';
import { headerColumns, templateCsv } from '../../shared/handbooks/csv';
import type { HandbookSchema } from '../../shared/handbooks/types';
import type { Locale } from '../../shared/errors';
import { HttpError, isAbortError } from '../../web/providers/httpClient';
import { navigateTo } from '../../web/routing/navigationBridge';
import { useLocale } from '../../web/stores/localeStore';
import { clearSession } from '../../web/stores/sessionStore';
import { failureMessages, fileSize, importCounts, importUrl, isCsvFile, parseImportFailure, type ImportFailure } from './importModel';
import { ImportErrorTable } from './ImportErrorTable';
import { uploadFile } from './uploadFile';

type Stage =
  | { step: 'choose' }
  | { step: 'uploading'; percent: number }
  | { step: 'applying' }
  | { step: 'done'; answer: ImportResponse | AppointResponse }
  | { step: 'failed'; failure: ImportFailure };

/**
 * 'Импорт' on a handbook's list (spec section 2: CSV import with the handbook's headers and example row,
 * semicolon-separated; issue: a dialog with a progress bar and the per-row error list). The file goes as
 * it is (text/csv, streamed by the server) to /api/table/import?type=, or to the procedure's path; the
 * import is all or nothing. Absent where the schema hides the import (vehicle replacement).
 */
export function HandbookImportButton({ schema }: { schema: HandbookSchema }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  if (schema.import.hidden) return null;
  return (
    <>
      <Button size="small" startIcon={<UploadFileIcon />} onClick={() => setOpen(true)} data-testid="handbook-import">
        {translate('handbookEditor.import.button')}
      </Button>
      <Dialog
        open={open}
        // while the server applies the file the answer must not be lost: the dialog stays
        onClose={() => {
          if (!busy) setOpen(false);
        }}
        maxWidth="md"
        fullWidth
        aria-labelledby="handbook-import-title"
      >
        <DialogTitle id="handbook-import-title">{translate('handbookEditor.import.title', { title: schema.title })}</DialogTitle>
        {open && <ImportDialogBody schema={schema} onBusy={setBusy} onClose={() => setOpen(false)} />}
      </Dialog>
    </>
  );
}

function ImportDialogBody({ schema, onBusy, onClose }: { schema: HandbookSchema; onBusy: (busy: boolean) => void; onClose: () => void }) {
  const translate = useTranslate();
  const refresh = useRefresh();
  const locale = useLocale();
  const [file, setFile] = useState<File | null>(null);
  const [notCsv, setNotCsv] = useState(false);
  const [stage, setStage] = useState<Stage>({ step: 'choose' });
  const input = useRef<HTMLInputElement>(null);
  const upload = useRef<AbortController | null>(null);

  useEffect(() => () => upload.current?.abort(), []);
  useEffect(() => onBusy(stage.step === 'applying'), [stage.step, onBusy]);

  const pick = (picked: File | undefined) => {
    if (!picked) return;
    setNotCsv(!isCsvFile(picked));
    setFile(isCsvFile(picked) ? picked : null);
    setStage({ step: 'choose' });
  };

  const start = async () => {
    if (!file) return;
    const controller = new AbortController();
    upload.current = controller;
    setStage({ step: 'uploading', percent: 0 });
    try {
      const answer = await uploadFile<ImportResponse | AppointResponse>(importUrl(schema), file, 'text/csv', {
        signal: controller.signal,
        onProgress: (loaded, total) =>
          setStage((now) =>
            now.step === 'uploading' ? { step: 'uploading', percent: total ? Math.round((loaded / total) * 100) : 0 } : now,
          ),
        onUploaded: () => setStage((now) => (now.step === 'uploading' ? { step: 'applying' } : now)),
      });
      setStage({ step: 'done', answer });
      refresh();
    } catch (error) {
      if (isAbortError(error)) {
        setStage({ step: 'choose' });
        return;
      }
      setStage({ step: 'failed', failure: failureOf(error) });
    } finally {
      upload.current = null;
    }
  };

  const again = () => {
    setFile(null);
    setStage({ step: 'choose' });
    if (input.current) input.current.value = '';
  };

  const working = stage.step === 'uploading' || stage.step === 'applying';
  const finished = stage.step === 'done' || stage.step === 'failed';
  return (
    <>
      <DialogContent dividers>
        <ImportFormat schema={schema} />
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mt: 2, flexWrap: 'wrap' }}>
          <Button component="label" variant="outlined" size="small" disabled={working}>
            {translate('handbookEditor.import.chooseFile')}
            <input
              ref={input}
              type="file"
              accept=".csv,text/csv"
              hidden
              data-testid="handbook-import-file"
              onChange={(event) => pick(event.target.files?.[0])}
            />
          </Button>
          <Typography variant="body2" color={file ? 'text.primary' : 'text.secondary'} data-testid="handbook-import-file-name">
            {file ? `${file.name} (${fileSize(file.size, locale)})` : translate('handbookEditor.import.noFile')}
          </Typography>
        </Box>
        {notCsv && (
          <Alert severity="warning" sx={{ mt: 1 }}>
            {translate('handbookEditor.import.notCsv')}
          </Alert>
        )}
        {stage.step === 'uploading' && (
          <Box sx={{ mt: 2 }} data-testid="handbook-import-progress">
            <LinearProgress variant="determinate" value={stage.percent} />
            <Typography variant="caption">{translate('handbookEditor.import.uploading', { percent: stage.percent })}</Typography>
          </Box>
        )}
        {stage.step === 'applying' && (
          <Box sx={{ mt: 2 }} data-testid="handbook-import-applying">
            <LinearProgress />
            <Typography variant="caption">{translate('handbookEditor.import.applying')}</Typography>
          </Box>
        )}
        {stage.step === 'done' && (
          <Alert severity="success" sx={{ mt: 2 }} data-testid="handbook-import-done">
            <strong>{translate('handbookEditor.import.done')}</strong>
            {importCounts(stage.answer).map(({ key, value }) => (
              <div key={key}>
                {translate(`handbookEditor.import.counts.${key}`)}: <span data-testid={`handbook-import-${key}`}>{value}</span>
              </div>
            ))}
          </Alert>
        )}
        {stage.step === 'failed' && <ImportFailureView failure={stage.failure} locale={locale} />}
      </DialogContent>
      <DialogActions>
        {finished && <Button onClick={again}>{translate('handbookEditor.import.another')}</Button>}
        {stage.step === 'uploading' && <Button onClick={() => upload.current?.abort()}>{translate('handbookEditor.import.cancel')}</Button>}
        <Button onClick={onClose} disabled={stage.step === 'applying'}>
          {translate(finished ? 'handbookEditor.import.close' : 'handbookEditor.import.cancel')}
        </Button>
        {!finished && (
          <Button variant="contained" onClick={() => void start()} disabled={!file || working} data-testid="handbook-import-upload">
            {translate('handbookEditor.import.upload')}
          </Button>
        )}
      </DialogActions>
    </>
  );
}

/** A refused upload as the dialog shows it; a lost session ends it like every other request (spec section 8). */
function failureOf(error: unknown): ImportFailure {
  if (!(error instanceof HttpError)) return { kind: 'messages', status: 0, messages: [] };
  if (error.status === 401) {
    clearSession();
    navigateTo('/', { replace: true });
  }
  return parseImportFailure(error.status, error.body);
}

function ImportFailureView({ failure, locale }: { failure: ImportFailure; locale: Locale }) {
  const translate = useTranslate();
  return (
    <Box sx={{ mt: 2 }} data-testid="handbook-import-failed">
      <Alert severity="error">
        <strong>{translate('handbookEditor.import.failed')}</strong>
        {failureMessages(failure, locale).map((text, i) => (
          <div key={i}>{text}</div>
        ))}
      </Alert>
      {failure.kind === 'rows' && <ImportErrorTable errors={failure.errors} moreErrors={failure.moreErrors} />}
    </Box>
  );
}

/** The expected file: the headers, the example row, the mode's rule and a template to download. */
function ImportFormat({ schema }: { schema: HandbookSchema }) {
  const translate = useTranslate();
  const href = useMemo(() => URL.createObjectURL(new Blob([templateCsv(schema)], { type: 'text/csv;charset=utf-8' })), [schema]);
  useEffect(() => () => URL.revokeObjectURL(href), [href]);
  const { headers, example, mode, keys, headerOptional } = schema.import;
  const timeHeaders = headerColumns(schema, headers)
    .filter((column) => column?.field.kind === 'minutes')
    .map((column) => column?.name);
  return (
    <Box data-testid="handbook-import-format">
      <Typography variant="body2">{translate('handbookEditor.import.format')}</Typography>
      <TableContainer sx={{ my: 1, maxWidth: '100%', overflowX: 'auto' }}>
        <Table size="small" sx={{ '& td, & th': { whiteSpace: 'nowrap', fontFamily: 'monospace', fontSize: '0.75rem' } }}>
          <TableHead>
            <TableRow>
              {headers.map((header) => (
                <TableCell key={header}>{header}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            <TableRow>
              {headers.map((header, i) => (
                <TableCell key={header} title={translate('handbookEditor.import.example')}>
                  {example[i] ?? ''}
                </TableCell>
              ))}
            </TableRow>
          </TableBody>
        </Table>
      </TableContainer>
      {headerOptional && <Typography variant="body2">{translate('handbookEditor.import.headerOptional')}</Typography>}
      {timeHeaders.length > 0 && (
        <Typography variant="body2" data-testid="handbook-import-times">
          {translate('handbookEditor.import.times', { fields: timeHeaders.join(', ') })}
        </Typography>
      )}
      <Typography variant="body2">{translate(`handbookEditor.import.modes.${mode}`, { keys: (keys ?? []).join(', ') })}</Typography>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {translate('handbookEditor.import.allOrNothing')}
      </Typography>
      <Link
        href={href}
        download={`${schema.type}-template.csv`}
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
        data-testid="handbook-import-template"
      >
        <DownloadIcon fontSize="small" />
        {translate('handbookEditor.import.template')}
      </Link>
    </Box>
  );
}
