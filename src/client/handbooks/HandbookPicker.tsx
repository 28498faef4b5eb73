import { MenuItem, TextField } from '@mui/material';
import { useNavigate } from 'react-router';
import { useTranslate } from 'react-admin';
import type { HandbookSchema } from '../../shared/handbooks/types';
import { handbookPath } from './handbookPaths';
import { useReadableHandbooks } from './useReadableHandbooks';

/** Switches between the handbooks the user may read (one screen for all of them, spec section 2). */
export function HandbookPicker({ schema }: { schema: HandbookSchema }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const handbooks = useReadableHandbooks();
  return (
    <TextField
      select
      size="small"
      label={translate('handbookEditor.handbook')}
      value={schema.type}
      onChange={(event) => navigate(handbookPath(event.target.value))}
      sx={{ width: 360 }}
      slotProps={{
        select: { MenuProps: { slotProps: { paper: { sx: { maxHeight: 520 } } } } },
        htmlInput: { 'data-testid': 'handbook-picker' },
      }}
    >
      {handbooks.map((handbook) => (
        <MenuItem key={handbook.type} value={handbook.type}>
          {handbook.title}
        </MenuItem>
      ))}
    </TextField>
  );
}
