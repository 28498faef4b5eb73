import { useState } from 'react';
import { Button } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { TopToolbar, useListContext, useNotify, useTranslate } from 'react-admin';
import { downloadFile } from '../components/downloadFile';
import { journalApi, journalFilterQuery, JOURNAL_SORTABLE } from '../providers/resources/journals';
import { sortQuery } from '../providers/resources/listQuery';
import type { JournalSpec } from './journalColumns';

/** 'Экспорт в CSV': the same filters and sort as the list, downloaded with the session's token. */
export function JournalActions({ spec }: { spec: JournalSpec }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { filterValues, sort } = useListContext();
  const [busy, setBusy] = useState(false);
  const exportCsv = async () => {
    setBusy(true);
    try {
      const query = { ...journalFilterQuery(filterValues), ...sortQuery(sort, JOURNAL_SORTABLE[spec.id] ?? []) };
      const name = await downloadFile(`${journalApi(spec.resource)}/export`, `${spec.id}.csv`, { query });
      notify('journals.exported', { type: 'info', messageArgs: { name } });
    } catch {
      // shown by the http client
    } finally {
      setBusy(false);
    }
  };
  return (
    <TopToolbar>
      <Button size="small" variant="outlined" startIcon={<DownloadIcon />} onClick={() => void exportCsv()} disabled={busy} data-testid="journal-export">
        {translate('journals.export')}
      </Button>
    </TopToolbar>
  );
}
