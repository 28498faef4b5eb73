import { useState } from 'react';
import { useDelete, useRecordContext, useResourceContext, type RaRecord } from 'react-admin';

/**
 * The row's record deleted after a confirmation (spec section 2): the dialog's state and the delete, pessimistic.
 * A refusal is shown by the http client (the server's messages, translated); react-admin's own raw notification
 * is not added on top, and the dialog closes either way.
 */
export function useConfirmedDelete<R extends RaRecord>(onDeleted: () => void) {
  const record = useRecordContext<R>();
  const resource = useResourceContext();
  const [open, setOpen] = useState(false);
  const [remove, { isPending }] = useDelete<R>();
  const confirm = () => {
    if (!record) return;
    remove(
      resource,
      { id: record.id, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setOpen(false);
          onDeleted();
        },
        onError: () => setOpen(false),
      },
    );
  };
  return { record, open, setOpen, confirm, isPending };
}
