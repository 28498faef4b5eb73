import { Button } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { TopToolbar } from 'react-admin';
import { useT } from '../../web/i18n/translate';

interface ControllerTaskActionsProps {
  /** With the create right only. */
  canCreate: boolean;
  /** The form's lists have come. */
  ready: boolean;
  onCreate: () => void;
}

/** The list's toolbar: «Новое задание» opens the order form. */
export function ControllerTaskActions({ canCreate, ready, onCreate }: ControllerTaskActionsProps) {
  const t = useT();
  return (
    <TopToolbar>
      {canCreate && (
        <Button variant="contained" startIcon={<AddIcon />} onClick={onCreate} disabled={!ready} data-testid="task-create">
          {t('bc.orders.create')}
        </Button>
      )}
    </TopToolbar>
  );
}
