import { useLocation } from 'react-router';
import ReportScreen from '../reports/ReportScreen';
import { TaskResultView } from '../../web/bc/TaskResultView';

/** /bc/resultuser: the declared report of results per controller; /bc/resultuser/{task}: one order's report. */
export default function ResultUserScreen() {
  const { pathname, state } = useLocation();
  const id = Number(/^\/bc\/resultuser\/(\d{1,10})\/?$/.exec(pathname)?.[1]);
  if (!id) return <ReportScreen />;
  // back to the report as it was built (its filters are its address)
  const back = typeof (state as { from?: unknown } | null)?.from === 'string' ? (state as { from: string }).from : '/bc/resultuser';
  return <TaskResultView key={id} taskId={id} back={back} />;
}
