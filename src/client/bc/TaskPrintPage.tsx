import { useEffect } from 'react';
import { Box, GlobalStyles, Table, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import { Title } from 'react-admin';
import { useT } from '../../web/i18n/translate';
import { bcApi } from '../../web/bc/bcApi';
import { useApiQuery } from '../../web/providers/queries';
import { TaskFacts } from '../../web/bc/TaskResultView';

/**
 * /bc/controllertask/print/{id}: the order as a sheet to print (the console around it is not printed), with
 * lines for the controllers' signatures; the browser's print dialog opens once it is shown.
 */
export function TaskPrintPage({ taskId }: { taskId: number }) {
  const t = useT();
  const { data: task } = useApiQuery(['bc', 'task', taskId], (signal) => bcApi.task(taskId, signal));
  useEffect(() => {
    if (task) window.setTimeout(() => window.print(), 300);
  }, [task]);
  if (!task) return null;
  return (
    <Box id="bc-print" sx={{ p: 3, maxWidth: 800 }} data-testid="task-print">
      <GlobalStyles
        styles={{
          '@media print': {
            'body *': { visibility: 'hidden' },
            '#bc-print, #bc-print *': { visibility: 'visible' },
            '#bc-print': { position: 'absolute', left: 0, top: 0 },
          },
        }}
      />
      <Title title={t('bc.orders.edit', { number: task.number })} />
      <Typography variant="h5" gutterBottom>
        {t('bc.orders.edit', { number: task.number })}
      </Typography>
      <TaskFacts task={task} />
      <Table size="small" sx={{ mt: 3 }}>
        <TableBody>
          {task.workers.map((w) => (
            <TableRow key={w.id}>
              <TableCell>{w.fio}</TableCell>
              <TableCell sx={{ width: '40%', borderBottom: '1px solid #000' }} />
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
