import DownloadIcon from '@mui/icons-material/Download';
import { Button, Menu, MenuItem } from '@mui/material';
import { useState } from 'react';
import { useListContext, useTranslate } from 'react-admin';
import { HANDBOOK_EXPORT_FORMATS, type HandbookExportFormat } from '../../shared/handbooks/api';
import type { HandbookSchema } from '../../shared/handbooks/types';
import { downloadFile } from '../components/downloadFile';
import { exportRequest } from '../../web/providers/resources/handbooks';

/**
 * Export of the list as filtered and sorted (spec section 2): the CSV the import reads back, or XLSX to read
 * (the fields' labels, linked records by name).
 */
export function HandbookExportButton({ schema }: { schema: HandbookSchema }) {
  const translate = useTranslate();
  const { filterValues, sort } = useListContext();
  const [busy, setBusy] = useState(false);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const run = (format: HandbookExportFormat) => {
    setAnchor(null);
    setBusy(true);
    downloadFile('/api/table/export', `${schema.type}.${format}`, {
      method: 'POST',
      body: { ...exportRequest(schema, filterValues, sort), format },
    })
      .catch(() => undefined)
      .finally(() => setBusy(false));
  };
  return (
    <>
      <Button
        size="small"
        startIcon={<DownloadIcon />}
        onClick={(event) => setAnchor(event.currentTarget)}
        disabled={busy}
        data-testid="handbook-export"
      >
        {translate('handbookEditor.export')}
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {HANDBOOK_EXPORT_FORMATS.map((format) => (
          <MenuItem key={format} onClick={() => run(format)} data-testid={`handbook-export-${format}`}>
            {translate(`handbookEditor.exportFormats.${format}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
