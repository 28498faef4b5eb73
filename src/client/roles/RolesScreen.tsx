import { Stack } from '@mui/material';
import { Navigate, Route, Routes } from 'react-router';
import { ModuleSwitchesCard } from '../system/ModuleSwitchesCard';
import roles from './index';

/**
 * /roles, /roles/create, /roles/:id (spec section 2, administration). Under the list, the module and
 * section switches of the whole system: they take the same right (update on roles), and here they stay
 * reachable whichever module is switched off (administration itself cannot be switched off from here).
 */
export default function RolesScreen() {
  const { list: RoleList, create: RoleCreate, edit: RoleEdit } = roles;
  return (
    <Routes>
      <Route
        index
        element={
          <Stack spacing={2} sx={{ pb: 2 }}>
            <RoleList />
            <ModuleSwitchesCard />
          </Stack>
        }
      />
      <Route path="create" element={<RoleCreate />} />
      <Route path=":id" element={<RoleEdit />} />
      <Route path="*" element={<Navigate to="/not-found" replace />} />
    </Routes>
  );
}
