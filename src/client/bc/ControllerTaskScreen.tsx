import { useLocation } from 'react-router';
import { ControllerTaskList } from './ControllerTaskList';
import { TaskPrintPage } from './TaskPrintPage';

/** /bc/controllertask: the work orders' list, and /bc/controllertask/print/{id}, one order as a sheet to print. */
export default function ControllerTaskScreen() {
  const { pathname } = useLocation();
  const printed = Number(/^\/bc\/controllertask\/print\/(\d{1,10})$/.exec(pathname)?.[1]);
  return printed ? <TaskPrintPage taskId={printed} /> : <ControllerTaskList />;
}
