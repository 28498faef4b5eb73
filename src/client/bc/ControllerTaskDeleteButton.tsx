import { IconButton, Tooltip } from '@mui/material';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useNotify } from 'react-admin';
import type { ControllerTask } from '../../shared/bc/tasks';
import { useT } from '../../web/i18n/translate';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useConfirmedDelete } from '../components/useConfirmedDelete';

/** Deletes the row's order with its report after a confirmation, as the row's icon button. */
export function ControllerTaskDeleteButton() {
  const t = useT();
  const notify = useNotify();
  const {
    record: task,
    open,
    setOpen,
    confirm,
    isPending,
  } = useConfirmedDelete<ControllerTask>(() => notify(t('bc.orders.deleted'), { type: 'success' }));
  if (!task) return null;
  return (
    <>
      <Tooltip title={t('bc.orders.delete')}>
        <IconButton size="small" onClick={() => setOpen(true)} disabled={isPending}>
          <DeleteIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <ConfirmDialog
        open={open}
        message={t('bc.orders.deleteConfirm', { number: task.number })}
        loading={isPending}
        onConfirm={confirm}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
