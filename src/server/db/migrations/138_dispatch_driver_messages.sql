-- Messages between dispatchers and drivers (src/server/dispatch/driverMessages.ts, docs/dispatch.md «Messages
-- to drivers»). A message goes to one vehicle, a route's, a depot's or every vehicle on the line; each vehicle's
-- copy is a delivery that moves queued → sent → delivered → read over the terminal's EGTS commands service
-- (CT_MSGTO out, CT_DELIV and CT_MSGCONF back; its id is the command's CID), or expires undelivered.
create table dispatch.driver_message (
  id bigserial primary key,
  text text not null,
  target text not null check (target in ('vehicle', 'route', 'depot', 'all')),
  target_id int,
  user_id int,
  username text,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index driver_message_created_idx on dispatch.driver_message (created_at);

create table dispatch.message_delivery (
  id bigserial primary key,
  message_id bigint not null references dispatch.driver_message (id) on delete cascade,
  vehicle_id int not null,
  state text not null default 'queued' check (state in ('queued', 'sent', 'delivered', 'read', 'expired')),
  sent_at timestamptz,
  delivered_at timestamptz,
  read_at timestamptz,
  state_at timestamptz not null default now(),
  unique (message_id, vehicle_id)
);
-- the courier's work: deliveries not yet final
create index message_delivery_open_idx on dispatch.message_delivery (state) where state in ('queued', 'sent');

-- Canned texts: a small handbook of the dispatchers' usual messages.
create table dispatch.canned_message (
  id serial primary key,
  text text not null unique,
  created_at timestamptz not null default now()
);
insert into dispatch.canned_message (text) values
  ('Свяжитесь с диспетчером'),
  ('Задержитесь на конечной на 5 минут'),
  ('Уменьшите скорость: сгон с впереди идущим'),
  ('Следуйте в парк'),
  ('Объезд: следуйте указаниям диспетчера');

-- Drivers' messages from their terminals (CT_MSGFROM).
create table dispatch.driver_inbox (
  id bigserial primary key,
  vehicle_id int not null,
  text text not null,
  received_at timestamptz not null default now()
);
create index driver_inbox_received_idx on dispatch.driver_inbox (received_at);
