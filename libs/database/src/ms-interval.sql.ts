/**
 * SQL for "this many milliseconds" as an interval, from a bind parameter (`msInterval('$2')`): every lease,
 * claim, grace and TTL in the code measures time with the database's clock this one way.
 */
export function msInterval(param: `$${number}`): string {
  return `make_interval(secs => ${param}::double precision / 1000)`;
}
