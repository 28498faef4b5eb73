import type { UserRecord } from '../../shared/api';
import type { Queryable } from '../db/types';

export type { UserRecord };

export const USER_COLUMNS = `u.id, u.username, u.email, u.first_name as "firstName", u.last_name as "lastName", u.title,
  u.is_blocked as "isBlocked", u.worker_id as "workerId", to_char(u.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "createdAt",
  coalesce((select array_agg(ur.role_id order by ur.role_id) from app.user_role ur where ur.user_id = u.id), '{}') as roles`;

export async function findUser(db: Queryable, id: number): Promise<UserRecord | undefined> {
  const [user] = await db.query<UserRecord>(`select ${USER_COLUMNS} from app.users u where u.id = $1`, [id]);
  return user;
}

export const BLANK_USER: Omit<UserRecord, 'id'> & { id: 0; password: string } = {
  id: 0,
  username: '',
  email: '',
  password: '',
  firstName: '',
  lastName: '',
  title: '',
  isBlocked: false,
  roles: [],
  workerId: null,
};
