import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import { UserCreate } from './UserCreate';
import { UserEdit } from './UserEdit';
import { UserList } from './UserList';

/** The users area: list, create and edit over the react-admin resource 'users'. */
const users = { list: UserList, create: UserCreate, edit: UserEdit, icon: ManageAccountsIcon };
export default users;
