-- Platform: users, roles, sessions, login throttling, settings, column visibility, permission codes.
create extension if not exists postgis;

create table app.role (
  id serial primary key,
  name text not null unique,
  description text,
  is_system boolean not null default false,
  permissions jsonb not null default '{}'::jsonb,
  settings jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table app.users (
  id serial primary key,
  username text not null,
  email text,
  password_hash text not null,
  first_name text not null default '',
  last_name text not null default '',
  title text not null default '',
  is_blocked boolean not null default false,
  map_settings jsonb,
  settings jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index users_username_key on app.users (lower(username));
create unique index users_email_key on app.users (lower(email)) where email is not null;

create table app.user_role (
  user_id int not null references app.users (id) on delete cascade,
  role_id int not null references app.role (id) on delete cascade,
  primary key (user_id, role_id)
);

-- A session is known by the SHA-256 of its token: a stolen table yields no usable token.
create table app.session (
  token_hash text primary key,
  user_id int not null references app.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  expires_at timestamptz not null,
  ip text,
  user_agent text
);
create index session_user_idx on app.session (user_id);

-- Failed logins per account ('user:<name>') and per address ('ip:<addr>'), in windows that expire.
create table app.login_failure (
  subject text primary key,
  failures int not null default 0,
  window_started_at timestamptz not null default now(),
  locked_until timestamptz
);

-- The system settings document of spec section 3 (journals, maxCenterDeviation, ... and switches).
create table app.settings (
  id int primary key default 1 check (id = 1),
  value jsonb not null default '{}'::jsonb,
  updated_at timestamptz not null default now()
);
insert into app.settings (id, value) values (1, '{}'::jsonb);

create table app.user_columns (
  user_id int not null references app.users (id) on delete cascade,
  table_name text not null,
  fields jsonb not null,
  primary key (user_id, table_name)
);

create table app.permission_code (
  id int primary key,
  meaning text not null,
  grants jsonb not null
);
