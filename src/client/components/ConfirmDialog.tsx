import type { ReactNode } from 'react';
import { Confirm } from 'react-admin';
import { useT } from '../../web/i18n/translate';

export interface ConfirmDialogProps {
  open: boolean;
  /** The question, e.g. 'Удалить запись?'. */
  message: ReactNode;
  title?: ReactNode;
  /** Label of the confirm button; 'Да' by default. */
  confirmLabel?: string;
  loading?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** Confirm dialog of spec section 2 (message and confirm action), on react-admin's <Confirm>. */
export function ConfirmDialog({ open, message, title, confirmLabel, loading, onConfirm, onClose }: ConfirmDialogProps) {
  const t = useT();
  return (
    <Confirm
      isOpen={open}
      title={title ?? t('confirm.title')}
      content={message}
      confirm={confirmLabel ?? t('confirm.yes')}
      cancel={t('confirm.no')}
      loading={loading}
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}
