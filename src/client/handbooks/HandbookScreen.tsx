import { Navigate, Route, Routes, useParams } from 'react-router';
import { handbookPermissionPath, handbookSchema } from '../../../schemas/index';
import { useRights } from '../../web/components/useRights';
import { HandbookCreate } from './HandbookCreate';
import { HandbookEdit } from './HandbookEdit';
import { HandbookList } from './HandbookList';
import { handbookPath } from './handbookPaths';
import { useReadableHandbooks } from './useReadableHandbooks';

function HandbookRoutes() {
  const { handbookType = '', '*': rest = '' } = useParams();
  const schema = handbookSchema(handbookType);
  const rights = useRights(handbookPermissionPath(schema?.type ?? 'agency'));
  if (!schema) return <Navigate to="/not-found" replace />;
  if (rest === '') return <HandbookList key={schema.type} schema={schema} />;
  if (rest.includes('/')) return <Navigate to="/not-found" replace />;
  if (rest === 'create')
    return rights.create ? <HandbookCreate key={schema.type} schema={schema} /> : <Navigate to="/access-denied" replace />;
  if (!rights.update) return <Navigate to="/access-denied" replace />;
  return <HandbookEdit key={`${schema.type}/${rest}`} schema={schema} id={decodeURIComponent(rest)} />;
}

/** /handbooks/table itself: the first handbook the user may read. */
function FirstHandbook() {
  const [first] = useReadableHandbooks();
  return <Navigate to={first ? handbookPath(first.type) : '/not-found'} replace />;
}

/**
 * /handbooks/table/:handbookType (spec section 2): one generated screen for every handbook of schemas/;
 * /create and /:id under it. The route guard has already checked the handbook's section and read right.
 */
export default function HandbookScreen() {
  return (
    <Routes>
      <Route index element={<FirstHandbook />} />
      <Route path=":handbookType/*" element={<HandbookRoutes />} />
      <Route path="*" element={<Navigate to="/not-found" replace />} />
    </Routes>
  );
}
