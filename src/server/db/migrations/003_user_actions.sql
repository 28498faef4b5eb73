-- The user-actions journal: who did what, when, from which page, with values before and after.
create table app.user_action (
  id bigserial primary key,
  at timestamptz not null default now(),
  user_id int,
  username text,
  page_id text,
  action text not null,
  object text,
  object_id text,
  before jsonb,
  after jsonb,
  ip text
);
create index user_action_at_idx on app.user_action (at desc);
create index user_action_user_idx on app.user_action (user_id, at desc);
