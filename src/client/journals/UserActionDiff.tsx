import { useState } from 'react';
import { Box, Checkbox, FormControlLabel, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { DiffTable } from './DiffTable';
import { jsonDiff } from './jsonDiff';

/**
 * The expanded user-action row: its before and after compared field by field (changed, added, removed),
 * unchanged fields on request; and the request itself for writes journaled without before and after.
 */
export function UserActionDiff() {
  const record = useRecordContext<Record<string, unknown>>();
  const translate = useTranslate();
  const [showAll, setShowAll] = useState(false);
  if (!record) return null;
  const hasDocuments = record.before != null || record.after != null;
  const lines = hasDocuments ? jsonDiff(record.before, record.after, showAll) : [];
  return (
    <Box sx={{ py: 1, pl: 1, maxWidth: 1100 }} data-testid="user-action-diff">
      {hasDocuments && (
        <>
          <FormControlLabel
            control={<Checkbox size="small" checked={showAll} onChange={(_, on) => setShowAll(on)} />}
            label={<Typography variant="body2">{translate('journals.diff.showAll')}</Typography>}
          />
          {lines.length ? (
            <DiffTable lines={lines} />
          ) : (
            <Typography variant="body2" color="text.secondary">
              {translate('journals.diff.none')}
            </Typography>
          )}
        </>
      )}
      {record.request != null && (
        <>
          <Typography variant="subtitle2" sx={{ mt: 1 }}>
            {translate('journals.diff.request')}
          </Typography>
          <Box component="pre" sx={{ m: 0, p: 1, bgcolor: 'action.hover', borderRadius: 1, fontSize: '0.75rem', overflowX: 'auto' }}>
            {JSON.stringify(record.request, null, 2)}
          </Box>
        </>
      )}
    </Box>
  );
}
