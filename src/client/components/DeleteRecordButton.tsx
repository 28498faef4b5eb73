import { Box, Button } from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import { useNotify, useRedirect, useTranslate, type RaRecord } from 'react-admin';
import { ConfirmDialog } from './ConfirmDialog';
import { useConfirmedDelete } from './useConfirmedDelete';

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

/** Delete with a confirm dialog (spec section 2), as a button with its label. */
export function DeleteRecordButton({ confirmMessage, nameOf, redirectTo, onDeleted, disabled }: DeleteRecordButtonProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const { record, open, setOpen, confirm, isPending } = useConfirmedDelete(() => {
    notify('ra.notification.deleted', { type: 'info', messageArgs: { smart_count: 1 } });
    onDeleted?.();
    if (redirectTo) redirect(redirectTo);
  });
  if (!record) return null;
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
