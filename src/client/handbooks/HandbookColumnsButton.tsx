import ViewColumnIcon from '@mui/icons-material/ViewColumn';
import { Button, Checkbox, ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import type { HandbookSchema } from '../../shared/handbooks/types';
import { columnFields } from './useHandbookColumns';

interface HandbookColumnsButtonProps {
  schema: HandbookSchema;
  visible: readonly string[];
  onToggle: (name: string) => void;
}

/** The column chooser of a handbook list; the last visible column cannot be turned off. */
export function HandbookColumnsButton({ schema, visible, onToggle }: HandbookColumnsButtonProps) {
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button
        size="small"
        startIcon={<ViewColumnIcon />}
        onClick={(event) => setAnchor(event.currentTarget)}
        data-testid="handbook-columns"
      >
        {translate('handbookEditor.columns')}
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)} slotProps={{ paper: { sx: { maxHeight: 480 } } }}>
        {columnFields(schema).map((field) => {
          const checked = visible.includes(field.name);
          const last = checked && visible.length === 1;
          return (
            <MenuItem key={field.name} dense onClick={() => onToggle(field.name)} aria-disabled={last} data-testid={`column-${field.name}`}>
              <ListItemIcon>
                <Checkbox size="small" edge="start" checked={checked} tabIndex={-1} disableRipple />
              </ListItemIcon>
              <ListItemText primary={field.label} secondary={last ? translate('handbookEditor.lastColumn') : undefined} />
            </MenuItem>
          );
        })}
      </Menu>
    </>
  );
}
