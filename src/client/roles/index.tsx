import SecurityIcon from '@mui/icons-material/Security';
import { RoleCreate } from './RoleCreate';
import { RoleEdit } from './RoleEdit';
import { RoleList } from './RoleList';

/** The roles area: list, create and edit (with the permission matrix) over the resource 'roles'. */
const roles = { list: RoleList, create: RoleCreate, edit: RoleEdit, icon: SecurityIcon };
export default roles;
