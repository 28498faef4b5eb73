import DownloadIcon from '@mui/icons-material/Download';
import { Button } from '@mui/material';
import { useState } from 'react';
import { useListContext, useTranslate } from 'react-admin';
import type { HandbookSchema } from '../../shared/handbooks/types';
import { downloadFile } from '../components/downloadFile';
import { exportRequest } from '../providers/resources/handbooks';

/** Export of the list as filtered and sorted: the same CSV the import reads (spec section 2). */
export function HandbookExportButton({ schema }: { schema: HandbookSchema }) {
  const translate = useTranslate();
  const { filterValues, sort } = useListContext();
  const [busy, setBusy] = useState(false);
  const run = () => {
    setBusy(true);
    downloadFile('/api/table/export', `${schema.type}.csv`, { method: 'POST', body: exportRequest(schema, filterValues, sort) })
      .catch(() => undefined)
      .finally(() => setBusy(false));
  };
  return (
    <Button size="small" startIcon={<DownloadIcon />} onClick={run} disabled={busy} data-testid="handbook-export">
      {translate('handbookEditor.export')}
    </Button>
  );
}
