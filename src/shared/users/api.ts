/** The columns of the users list the server sorts by (GET /api/v1/users?sortField=). */
export const USER_SORT_FIELDS = ['id', 'username', 'email', 'firstName', 'lastName', 'title', 'isBlocked', 'createdAt'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];
