import type { AuthProvider } from 'react-admin';
import type { Action } from '../../shared/permissions';
import { switchesOf } from '../../shared/modules';
import { mayAccess } from '../../shared/routeAccess';
import { getSession, readToken } from '../stores/sessionStore';
import { HttpError } from './httpClient';
import { login, logout } from './session';

/** react-admin's action names read as the permission bits of spec section 6. */
const ACTIONS: Record<string, Action> = {
  create: 'create',
  clone: 'create',
  edit: 'update',
  update: 'update',
  delete: 'delete',
};

export function fullNameOf(user: { firstName: string; lastName: string; username: string }): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.username;
}

/**
 * react-admin's authProvider over the session calls. `canAccess` takes a console path as the resource
 * (e.g. '/users', 'handbooks/table/stops') and decides with the shared permission code plus the module
 * and section switches the server sent with the user.
 */
export const authProvider: AuthProvider = {
  async login({ username, password }: { username: string; password: string }) {
    await login(username, password);
  },
  async logout() {
    await logout();
    return '/';
  },
  async checkAuth() {
    if (!readToken()) throw { redirectTo: '/', message: false };
  },
  async checkError(error: unknown) {
    // 401 has already cleared the session in the http client; other statuses keep the user logged in
    if (error instanceof HttpError && error.status === 401) throw { redirectTo: '/', logoutUser: true, message: false };
  },
  async getIdentity() {
    const user = getSession().user;
    return user ? { id: user.id, fullName: fullNameOf(user) } : { id: '' };
  },
  async getPermissions() {
    return getSession().user;
  },
  async canAccess({ action, resource }) {
    const user = getSession().user;
    return mayAccess(user, switchesOf(user), resource, ACTIONS[action] ?? 'read');
  },
};
