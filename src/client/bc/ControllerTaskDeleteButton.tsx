import { useState } from 'react';
import { IconButton, Tooltip } from '@mui/material';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useDelete, useNotify, useRecordContext, useResourceContext } from 'react-admin';
import type { ControllerTask } from '../../shared/bc/tasks';
import { useT } from '../../web/i18n/translate';
import { ConfirmDialog } from '../components/ConfirmDialog';

/**
 * Deletes the row's order with its report after a confirmation. A refusal is shown by the http client (the
 * server's message, translated), so react-admin adds no notification of its own.
 */
export function ControllerTaskDeleteButton() {
  const task = useRecordContext<ControllerTask>();
  const resource = useResourceContext();
  const t = useT();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const [remove, { isPending }] = useDelete<ControllerTask>();
  if (!task) return null;
  const confirm = () =>
    remove(
      resource,
      { id: task.id, previousData: task },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setOpen(false);
          notify(t('bc.orders.deleted'), { type: 'success' });
        },
        onError: () => setOpen(false),
      },
    );
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
