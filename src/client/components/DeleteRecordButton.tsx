import { useState } from 'react';
import { Box, Button } from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import { useDelete, useNotify, useRecordContext, useRedirect, useResourceContext, useTranslate, type RaRecord } from 'react-admin';
import { ConfirmDialog } from './ConfirmDialog';

interface DeleteRecordButtonProps {
  /** The question of the confirm dialog (an i18n key; the record is %{name}). */
  confirmMessage: string;
  /** The record's name in the question. */
  nameOf: (record: RaRecord) => string;
  /** Where to go after deleting; stays on the page when absent. */
  redirectTo?: string;
  /** After a successful delete (e.g. reload the console's own permissions). */
  onDeleted?: () => void;
  disabled?: boolean;
}

/**
 * Delete with a confirm dialog (spec section 2). A refusal is shown by the http client (the server's
 * messages, translated); react-admin's own raw notification is not added on top.
 */
export function DeleteRecordButton({ confirmMessage, nameOf, redirectTo, onDeleted, disabled }: DeleteRecordButtonProps) {
  const record = useRecordContext();
  const resource = useResourceContext();
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const [open, setOpen] = useState(false);
  const [remove, { isPending }] = useDelete();
  if (!record) return null;
  const confirm = () =>
    remove(
      resource,
      { id: record.id, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setOpen(false);
          notify('ra.notification.deleted', { type: 'info', messageArgs: { smart_count: 1 } });
          onDeleted?.();
          if (redirectTo) redirect(redirectTo);
        },
        onError: () => setOpen(false),
      },
    );
  return (
    // clicks inside the dialog (a portal) still bubble through React: keep them from a clickable row
    <Box component="span" onClick={(event) => event.stopPropagation()}>
      <Button
        color="error"
        startIcon={<DeleteIcon />}
        disabled={disabled || isPending}
        onClick={() => setOpen(true)}
        data-testid="delete-button"
      >
        {translate('ra.action.delete')}
      </Button>
      <ConfirmDialog
        open={open}
        message={translate(confirmMessage, { name: nameOf(record) })}
        confirmLabel={translate('ra.action.delete')}
        loading={isPending}
        onConfirm={confirm}
        onClose={() => setOpen(false)}
      />
    </Box>
  );
}
