import { useState } from 'react';
import { Button, ButtonGroup } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { useNotify, useTranslate } from 'react-admin';
import { filterQuery } from '../../shared/reports/filters';
import { reportApi, type ReportDeclaration } from '../../shared/reports/types';
import { downloadFile } from '../components/downloadFile';
import type { ReportUrlState } from './reportUrl';

/** CSV and XLSX of exactly what the built filters select, in the table's order, with the session's token. */
export function ReportExport({ report, state }: { report: ReportDeclaration; state: ReportUrlState }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const download = async (format: string) => {
    setBusy(true);
    try {
      const query = { ...filterQuery(state.filters), sortField: state.sort.field, sortOrder: state.sort.order, format };
      const name = await downloadFile(`${reportApi(report)}/export`, `${report.file}.${format}`, { query });
      notify('reports.exported', { type: 'info', messageArgs: { name } });
    } catch {
      // shown by the http client
    } finally {
      setBusy(false);
    }
  };
  return (
    <ButtonGroup size="small" variant="outlined" disabled={busy || !state.built}>
      {report.export.map((format) => (
        <Button key={format} startIcon={<DownloadIcon />} onClick={() => void download(format)} data-testid={`report-export-${format}`}>
          {translate(`reports.export.${format}`)}
        </Button>
      ))}
    </ButtonGroup>
  );
}
