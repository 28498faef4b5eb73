-- The product's own geocoder (issue 15, field-app spec 2.3 address search): streets and house addresses of the
-- operator's city with their positions, so that address search works with no internet. Stops and the
-- enterprises', branches' and departments' addresses are searched where they already live.
-- A row without a house is the street itself (its middle); a row with a house is one building on it.
create table app.geocoder_address (
  id serial primary key,
  street text not null,
  house text,
  lat double precision not null check (lat between -90 and 90),
  lon double precision not null check (lon between -180 and 180),
  -- what a query is matched against: lower case, ё as е, "street, house"
  search text generated always as (lower(replace(street || coalesce(', ' || house, ''), 'ё', 'е'))) stored
);
-- A city holds a few thousand rows: a scan with LIKE is a millisecond; no text index needed.
