import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import UploadIcon from '@mui/icons-material/UploadFile';
import Papa from 'papaparse';
import { Title, useTranslate } from 'react-admin';
import { formatDateTime, formatNumber } from '../../shared/format';
import { IMPORT_FIELDS, IMPORT_KINDS, IMPORT_MAX_BYTES, type ImportKind } from '../../shared/pdm/model';
import { downloadFile } from '../components/downloadFile';
import { useRights } from '../../web/components/useRights';
import { useApiQuery } from '../../web/providers/queries';
import { failedRowsUrl, fetchImports, runImport, type ImportResult } from './pdmApi';

const PREVIEW_ROWS = 8;
const ignore = () => undefined;

/** A field's column guessed from the header's words (Russian or English). */
const GUESS: Readonly<Record<string, RegExp>> = {
  depot_number: /гараж|depot|тс|vehicle/i,
  sensor: /датчик|канал|sensor|channel/i,
  tm: /врем|дата|time|date/i,
  value: /знач|value/i,
  error: /ошиб|error/i,
  node: /узел|node/i,
  work: /работ|work/i,
  next_due: /след|next|due/i,
  comment: /коммент|comment/i,
};

function guessMapping(kind: ImportKind, header: readonly string[]): Record<string, string> {
  const mapping: Record<string, string> = {};
  const used = new Set<string>();
  for (const field of [...IMPORT_FIELDS[kind].required, ...IMPORT_FIELDS[kind].optional]) {
    const column = header.find((h) => !used.has(h) && (h.trim() === field || GUESS[field]?.test(h)));
    if (column !== undefined) {
      mapping[field] = column;
      used.add(column);
    }
  }
  return mapping;
}

/**
 * /pdm/import-manager (code 42): a CSV of sensor readings or service records. The file is previewed here and
 * its columns mapped to the fields (guessed from the header); «Проверить» is a dry run that writes nothing;
 * «Импортировать» writes the good rows. Every bad row is listed with its line, column and reason, and the
 * refused rows download as a CSV to fix and load again (rows already stored are skipped, never doubled).
 */
export default function ImportManagerScreen() {
  const translate = useTranslate();
  const rights = useRights('/pdm/import-manager');
  const [kind, setKind] = useState<ImportKind>('sensors');
  const [file, setFile] = useState<{ name: string; content: string; header: string[]; rows: string[][] } | null>(null);
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [result, setResult] = useState<ImportResult | null>(null);
  const [busy, setBusy] = useState(false);
  // undefined until the history has loaded, so an empty history is said only once it is known
  const imports = useApiQuery(['pdm', 'imports'], () => fetchImports());
  const history = imports.data?.list;

  const open = async (chosen: File | undefined) => {
    if (!chosen || chosen.size > IMPORT_MAX_BYTES) return;
    const content = await chosen.text();
    const parsed = Papa.parse<string[]>(content.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy', preview: PREVIEW_ROWS + 1 });
    const [header = [], ...rows] = parsed.data;
    setFile({ name: chosen.name, content, header, rows });
    setMapping(guessMapping(kind, header));
    setResult(null);
  };
  const run = (dryRun: boolean) => {
    if (!file) return;
    setBusy(true);
    runImport({ kind, file_name: file.name, content: file.content, mapping, dry_run: dryRun })
      .then((r) => setResult(r), ignore)
      .finally(() => {
        setBusy(false);
        void imports.refetch();
      });
  };
  const fields = [...IMPORT_FIELDS[kind].required, ...IMPORT_FIELDS[kind].optional];
  const complete = IMPORT_FIELDS[kind].required.every((f) => mapping[f]);

  return (
    <Box sx={{ p: 2 }}>
      <Title title="menu.pdm.importManager" />
      <Paper sx={{ p: 2, mb: 2 }}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
          <TextField
            select
            size="small"
            label={translate('pdm.import.kind')}
            value={kind}
            sx={{ minWidth: 240 }}
            onChange={(e) => {
              const k = e.target.value as ImportKind;
              setKind(k);
              if (file) setMapping(guessMapping(k, file.header));
              setResult(null);
            }}
          >
            {IMPORT_KINDS.map((k) => (
              <MenuItem key={k} value={k}>
                {translate(`pdm.import.kinds.${k}`)}
              </MenuItem>
            ))}
          </TextField>
          <Button component="label" variant="outlined" startIcon={<UploadIcon />} disabled={!rights.create}>
            {translate('pdm.import.file')}
            <input
              hidden
              type="file"
              accept=".csv,text/csv"
              data-testid="pdm-import-file"
              onChange={(e) => void open(e.target.files?.[0])}
            />
          </Button>
          {file && <Typography variant="body2">{file.name}</Typography>}
        </Stack>
        {file && (
          <>
            <Typography variant="subtitle2">{translate('pdm.import.preview')}</Typography>
            <Box sx={{ overflowX: 'auto', mb: 2 }}>
              <Table size="small" data-testid="pdm-import-preview">
                <TableHead>
                  <TableRow>
                    {file.header.map((h, i) => (
                      <TableCell key={i}>{h}</TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {file.rows.map((row, i) => (
                    <TableRow key={i}>
                      {row.map((c, j) => (
                        <TableCell key={j}>{c}</TableCell>
                      ))}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Box>
            <Typography variant="subtitle2">{translate('pdm.import.mapping')}</Typography>
            <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1, my: 1 }}>
              {fields.map((field) => (
                <TextField
                  key={field}
                  select
                  size="small"
                  sx={{ minWidth: 220 }}
                  label={translate(`pdm.import.fields.${field}`)}
                  value={mapping[field] ?? ''}
                  required={IMPORT_FIELDS[kind].required.includes(field)}
                  slotProps={{ htmlInput: { 'data-testid': `pdm-map-${field}` } }}
                  onChange={(e) => setMapping({ ...mapping, [field]: e.target.value })}
                >
                  <MenuItem value="">{translate('pdm.import.notMapped')}</MenuItem>
                  {file.header.map((h) => (
                    <MenuItem key={h} value={h}>
                      {h}
                    </MenuItem>
                  ))}
                </TextField>
              ))}
            </Stack>
            <Stack direction="row" spacing={1}>
              <Button variant="outlined" disabled={!complete || busy} onClick={() => run(true)} data-testid="pdm-import-dry">
                {translate('pdm.import.dryRun')}
              </Button>
              <Button
                variant="contained"
                disabled={!complete || busy || !rights.create}
                onClick={() => run(false)}
                data-testid="pdm-import-run"
              >
                {translate('pdm.import.run')}
              </Button>
            </Stack>
          </>
        )}
        {result && (
          <Box sx={{ mt: 2 }} data-testid="pdm-import-result">
            <Alert severity={result.refused ? 'warning' : 'success'}>
              {result.dry_run ? translate('pdm.import.dryResult') : ''}
              {translate('pdm.import.result', result)}
            </Alert>
            {result.errors.length > 0 && (
              <>
                <Typography variant="subtitle2" sx={{ mt: 1 }}>
                  {translate('pdm.import.errors')}
                </Typography>
                <Table size="small" data-testid="pdm-import-errors">
                  <TableHead>
                    <TableRow>
                      <TableCell>{translate('pdm.import.line')}</TableCell>
                      <TableCell>{translate('pdm.import.column')}</TableCell>
                      <TableCell>{translate('pdm.import.reason')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {result.errors.map((e, i) => (
                      <TableRow key={i}>
                        <TableCell>{e.line}</TableCell>
                        <TableCell>{e.column}</TableCell>
                        <TableCell>{translate(`pdm.import.reasons.${e.message}`, { _: e.message })}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
                {result.failed && (
                  <Button
                    sx={{ mt: 1 }}
                    onClick={() => void downloadFile(failedRowsUrl(result.id), `import-${result.id}-failed.csv`).catch(ignore)}
                    data-testid="pdm-import-failed"
                  >
                    {translate('pdm.import.failed')}
                  </Button>
                )}
              </>
            )}
          </Box>
        )}
      </Paper>
      <Typography variant="subtitle1">{translate('pdm.import.history')}</Typography>
      <Table size="small" data-testid="pdm-import-history">
        <TableHead>
          <TableRow>
            {['at', 'who', 'fileName', 'kind', 'mode', 'rows', 'added', 'skipped', 'refused'].map((c) => (
              <TableCell key={c}>{translate(`pdm.import.${c}`)}</TableCell>
            ))}
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {imports.isError && (
            <TableRow>
              <TableCell colSpan={10} sx={{ color: 'error.main' }}>
                {translate('loadFailed')}
              </TableCell>
            </TableRow>
          )}
          {history?.length === 0 && (
            <TableRow>
              <TableCell colSpan={10} data-testid="pdm-import-empty" sx={{ color: 'text.secondary' }}>
                {translate('pdm.import.noHistory')}
              </TableCell>
            </TableRow>
          )}
          {history?.map((h) => (
            <TableRow key={h.id}>
              <TableCell>{formatDateTime(h.at)}</TableCell>
              <TableCell>{h.username ?? '—'}</TableCell>
              <TableCell>{h.file_name}</TableCell>
              <TableCell>{translate(`pdm.import.kinds.${h.kind}`)}</TableCell>
              <TableCell>{translate(h.dry_run ? 'pdm.import.dry' : 'pdm.import.real')}</TableCell>
              {[h.rows, h.added, h.skipped, h.refused].map((n, i) => (
                <TableCell key={i} align="right">
                  {formatNumber(n)}
                </TableCell>
              ))}
              <TableCell>
                {h.failed && (
                  <Button size="small" onClick={() => void downloadFile(failedRowsUrl(h.id), `import-${h.id}-failed.csv`).catch(ignore)}>
                    CSV
                  </Button>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
