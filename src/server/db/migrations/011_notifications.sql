-- Notifications of the bell (spec sections 3 and 7). A notification is addressed to one user or, with user_id
-- null, to everyone allowed to see its type. What a user has seen is one watermark per user (the highest id
-- seen), not a row per user and notification: "set all viewed" is one upsert however many users there are.
create table app.notification (
  id bigserial primary key,
  at timestamptz not null default now(),
  type text not null,
  severity text not null default 'info' check (severity in ('info', 'warning', 'critical')),
  title text not null,
  body text not null default '',
  link text,
  user_id int references app.users (id) on delete cascade
);
create index notification_at_idx on app.notification (at);
create index notification_user_idx on app.notification (user_id, id desc);

create table app.notification_seen (
  user_id int primary key references app.users (id) on delete cascade,
  last_seen_id bigint not null default 0,
  seen_at timestamptz not null default now()
);
