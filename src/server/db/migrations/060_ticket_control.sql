-- Ticket control (bc): work orders, their workers and routes, the controller's report (tickets checked,
-- vehicle checks, photos), submissions accepted once, and controllers' last reported positions.
create schema if not exists bc;

-- The employee a login works as: the field app finds a controller's work order through it.
alter table app.users add column worker_id int references mgt.driver (driver_id) on delete set null;
create unique index users_worker_key on app.users (worker_id) where worker_id is not null;

create table bc.controller_task (
  id serial primary key,
  number text not null,
  date date not null,
  graphic_type_id int not null references cat.work_graphic_type (id),
  department_id int not null references cat.department (td_id),
  control_region_id int references cat.control_region (cd_id) on delete set null,
  status text not null default 'new' check (status in ('new', 'in_work', 'closed', 'not_achieved')),
  -- tickets checked per ticket type: { "<ticket_type_id>": count }
  check_tickets jsonb not null default '{}'::jsonb,
  -- the report's totals, kept with it so the reports over a year read neither JSON nor the vehicle checks
  tickets_checked int not null default 0,
  vehicles_checked int not null default 0,
  kickout_total int not null default 0,
  ovd_total int not null default 0,
  raport_total int not null default 0,
  seized_total int not null default 0,
  note text,
  -- the order a calendar copy was made from
  copied_from int references bc.controller_task (id) on delete set null,
  created_by int references app.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  result_at timestamptz,
  closed_at timestamptz
);
create index controller_task_date_idx on bc.controller_task (date, department_id);
create index controller_task_open_idx on bc.controller_task (date) where status in ('new', 'in_work');

create table bc.controller_task_worker (
  task_id int not null references bc.controller_task (id) on delete cascade,
  worker_id int not null references mgt.driver (driver_id),
  primary key (task_id, worker_id)
);
create index controller_task_worker_idx on bc.controller_task_worker (worker_id, task_id);

-- type 0: main route, 1: incidental route (field-app spec 2.5)
create table bc.controller_task_route (
  task_id int not null references bc.controller_task (id) on delete cascade,
  route_id int not null references mgt.routes (route_id),
  type smallint not null check (type in (0, 1)),
  primary key (task_id, route_id)
);
create index controller_task_route_idx on bc.controller_task_route (route_id, task_id);

-- One vehicle check of the report (field-app spec 3, "check sheet"); sell_tickets [{ticket_id, count}].
create table bc.check_vehicle (
  id serial primary key,
  task_id int not null references bc.controller_task (id) on delete cascade,
  position int not null,
  route_short_name text not null default '',
  route_id int references mgt.routes (route_id) on delete set null,
  depot_number int,
  table_number int,
  sell_tickets jsonb not null default '[]'::jsonb,
  sold_total int not null default 0,
  take_sk int not null default 0,
  take_vesb int not null default 0,
  take_other_leg int not null default 0,
  take_other_not_leg int not null default 0,
  kickout int not null default 0,
  ovd_deliver int not null default 0,
  driver_raport int not null default 0,
  unique (task_id, position)
);
create index check_vehicle_route_idx on bc.check_vehicle (route_id);

-- Photos of a report: the bytes in `data` on PostgreSQL, as files beside the embedded engine's data (photoStore.ts).
create table bc.task_photo (
  id serial primary key,
  task_id int not null references bc.controller_task (id) on delete cascade,
  title text not null,
  mime text not null,
  size int not null,
  data bytea,
  user_id int references app.users (id) on delete set null,
  created_at timestamptz not null default now(),
  unique (task_id, title)
);

-- A submission accepted once: a retry with the same key gets the first answer and changes nothing.
create table bc.submission (
  key text primary key,
  task_id int not null references bc.controller_task (id) on delete cascade,
  user_id int references app.users (id) on delete set null,
  kind text not null,
  response jsonb not null,
  created_at timestamptz not null default now()
);

-- The last position each user's field app reported (api/v1/auth/coord with accuracy).
create table bc.user_position (
  user_id int primary key references app.users (id) on delete cascade,
  lat double precision not null,
  lon double precision not null,
  accuracy real,
  at timestamptz not null default now()
);
