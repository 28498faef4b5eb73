import { Navigate, Route, Routes } from 'react-router';
import users from './index';

/** /users, /users/create, /users/edit/:id (spec section 2, administration). */
export default function UsersScreen() {
  const { list: UserList, create: UserCreate, edit: UserEdit } = users;
  return (
    <Routes>
      <Route index element={<UserList />} />
      <Route path="create" element={<UserCreate />} />
      <Route path="edit/:id" element={<UserEdit />} />
      <Route path="*" element={<Navigate to="/not-found" replace />} />
    </Routes>
  );
}
