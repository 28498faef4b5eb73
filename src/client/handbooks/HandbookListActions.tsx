import AddIcon from '@mui/icons-material/Add';
import { Button } from '@mui/material';
import { Link } from 'react-router';
import { FilterButton, TopToolbar, useTranslate } from 'react-admin';
import type { HandbookSchema } from '../../shared/handbooks/types';
import type { Rights } from '../../web/components/useRights';
import { HandbookColumnsButton } from './HandbookColumnsButton';
import { HandbookExportButton } from './HandbookExportButton';
import { HandbookImportButton } from './HandbookImportButton';
import { handbookCreatePath } from './handbookPaths';
import { AddCamerasButton } from './widgets/AddCamerasButton';

interface HandbookListActionsProps {
  schema: HandbookSchema;
  rights: Rights;
  visible: readonly string[];
  onToggleColumn: (name: string) => void;
}

/** Filters, columns, add, import (with the create and update rights), export, the schema's widgets. */
export function HandbookListActions({ schema, rights, visible, onToggleColumn }: HandbookListActionsProps) {
  const translate = useTranslate();
  return (
    <TopToolbar sx={{ alignItems: 'center' }}>
      <FilterButton />
      <HandbookColumnsButton schema={schema} visible={visible} onToggle={onToggleColumn} />
      {rights.create && (
        <Button size="small" component={Link} to={handbookCreatePath(schema.type)} startIcon={<AddIcon />} data-testid="handbook-create">
          {translate('ra.action.create')}
        </Button>
      )}
      {rights.create && rights.update && <HandbookImportButton schema={schema} />}
      <HandbookExportButton schema={schema} />
      {rights.create && schema.widgets?.includes('addCamerasToVehicle') && <AddCamerasButton />}
    </TopToolbar>
  );
}
