import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { ACK_COMMENT_MAX, type BoardException } from '../../shared/dispatch/api';
import { useT } from '../../web/i18n/translate';
import { useAcknowledge } from '../../web/dispatch/dispatchApi';
import { DispatchError } from '../../web/dispatch/DispatchError';

/** Acknowledging one exception with a comment (code 45); the board marks it and keeps it while it lasts. */
export function BoardAckDialog({ exception, onClose }: { exception: BoardException; onClose: () => void }) {
  const t = useT();
  const [comment, setComment] = useState('');
  const acknowledge = useAcknowledge();
  const save = () => acknowledge.mutate({ key: exception.key, since: exception.since, comment: comment.trim() }, { onSuccess: onClose });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" data-testid="board-ack-dialog">
      <DialogTitle>
        {t('dispatch.board.ackTitle', { kind: t(`dispatch.kinds.${exception.kind}`), vehicle: exception.depotNumber ?? '—' })}
      </DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          fullWidth
          multiline
          minRows={2}
          margin="dense"
          label={t('dispatch.board.comment')}
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          slotProps={{ htmlInput: { maxLength: ACK_COMMENT_MAX, 'data-testid': 'board-ack-comment' } }}
        />
        <DispatchError error={acknowledge.error} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('dispatch.board.cancel')}</Button>
        <Button variant="contained" onClick={save} disabled={acknowledge.isPending} data-testid="board-ack-save">
          {t('dispatch.board.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
