import { Navigate, useLocation } from 'react-router';
import { TaskResultView } from '../../web/bc/TaskResultView';

/** /bc/result/{task}: one order's report; /bc/result alone leads to the results per controller. */
export default function TaskResultScreen() {
  const { pathname } = useLocation();
  const id = Number(/^\/bc\/result\/(\d{1,10})\/?$/.exec(pathname)?.[1]);
  if (!id) return <Navigate to="/bc/resultuser" replace />;
  return <TaskResultView key={id} taskId={id} back="/bc/resultuser" />;
}
