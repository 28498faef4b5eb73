import { IconButton, Tooltip } from '@mui/material';
import AssignmentIcon from '@mui/icons-material/AssignmentOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import PrintIcon from '@mui/icons-material/PrintOutlined';
import { Link } from 'react-router';
import { useRecordContext } from 'react-admin';
import type { ControllerTask } from '../../shared/bc/tasks';
import type { Rights } from '../../web/components/useRights';
import { useT } from '../../web/i18n/translate';
import { ControllerTaskDeleteButton } from './ControllerTaskDeleteButton';

interface ControllerTaskRowActionsProps {
  rights: Rights;
  onEdit: (task: ControllerTask) => void;
}

/** A row's buttons: edit (an order not closed yet), its report, print, delete; each by the user's rights. */
export function ControllerTaskRowActions({ rights, onEdit }: ControllerTaskRowActionsProps) {
  const task = useRecordContext<ControllerTask>();
  const t = useT();
  if (!task) return null;
  return (
    <>
      {rights.update && task.status !== 'closed' && (
        <Tooltip title={t('bc.orders.edit', { number: task.number })}>
          <IconButton size="small" onClick={() => onEdit(task)}>
            <EditIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      <Tooltip title={t('bc.orders.result')}>
        <IconButton size="small" component={Link} to={`/bc/result/${task.id}`}>
          <AssignmentIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={t('bc.orders.print')}>
        <IconButton size="small" component={Link} to={`/bc/controllertask/print/${task.id}`} target="_blank">
          <PrintIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      {rights.delete && <ControllerTaskDeleteButton />}
    </>
  );
}
