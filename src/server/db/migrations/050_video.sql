-- On-board video (issue 12). Live views: each POST /api/v1/video/empty is one row (the field app's request id).
create table app.video_live (
  id serial primary key,
  user_id int not null references app.users (id) on delete cascade,
  vehicle_id int not null,
  created_at timestamptz not null default now()
);
create index video_live_created_idx on app.video_live (created_at);

-- Archive requests: jobs the background worker moves through the media/command statuses of console.md section 3.
-- Its state is here, not in memory: a restart resumes every request where it was. A worker holds a request
-- while lease_until is ahead of now (a stopped process's requests come free when it runs out).
create table app.video_request (
  id serial primary key,
  user_id int references app.users (id) on delete set null,
  username text not null,
  vehicle_id int not null,
  dvr_id int,
  cameras int[] not null,
  period_from timestamptz not null,
  period_to timestamptz not null,
  status smallint not null default 1 check (status between 1 and 14),
  reason text,
  progress real not null default 0,
  -- seconds of recording fetched and to fetch: a resumed download goes on from downloaded_s
  downloaded_s real not null default 0,
  total_s real not null default 0,
  size_bytes bigint,
  created_at timestamptz not null default now(),
  status_at timestamptz not null default now(),
  viewed_at timestamptz,
  lease_owner text,
  lease_until timestamptz
);
create index video_request_created_idx on app.video_request (created_at desc, id desc);
create index video_request_user_idx on app.video_request (user_id, created_at desc, id desc);
create index video_request_period_idx on app.video_request (period_from desc, id desc);
create index video_request_username_idx on app.video_request (username, id);
create index video_request_active_idx on app.video_request (id) where status in (1, 2, 3, 4, 5, 8);

-- The key signing stream addresses (HMAC): one per installation, shared by every server process.
create table app.video_secret (
  id int primary key check (id = 1),
  secret text not null
);

-- When the worker last moved a download on (its progress is rate × time since), and, for a recorder behind a
-- media server, the segments its archive listed and how many are fetched (into DATA_DIR/video-archive/<id>/).
alter table app.video_request add column worked_at timestamptz;
alter table app.video_request add column plan jsonb;
alter table app.video_request add column fetched int not null default 0;
