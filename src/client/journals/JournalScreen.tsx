import { Navigate, useLocation } from 'react-router';
import { journalOf, JOURNAL_SPECS } from './journalColumns';
import { JournalList } from './JournalList';

/** /journal/useractions, /eventsts, /eventspo, /video, /adas: one list each. */
export default function JournalScreen() {
  const { pathname } = useLocation();
  const id = journalOf(pathname);
  if (!id) return <Navigate to="/not-found" replace />;
  return <JournalList key={id} spec={JOURNAL_SPECS[id]} />;
}
