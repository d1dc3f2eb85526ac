/**
 * The lease operations as Lua scripts: Redis runs each one atomically, so a compare and the write
 * it guards can never interleave with another bridge's. A lease is a JSON value
 * `{node, url, fence, file?, since}` under `lease:<key>` with a PX expiry (`since`: when it was
 * acquired, ms since the epoch by Redis's clock); `fence:<key>` is the INCR counter;
 * `last:<key>` keeps the last holder (and whether it released) with no expiry.
 */

/**
 * KEYS lease, fence, last; ARGV node, url, file ('' for none), ttl ms. Answers `{0, holder,
 * pttl}` when held, or `{1, lease, previous last ('' for none)}`. Without a file the new lease
 * carries the last one's on, so an owner that dies before recording its own leaves the resumable
 * file known.
 */
export const ACQUIRE = `
local current = redis.call('GET', KEYS[1])
if current then return {0, current, redis.call('PTTL', KEYS[1])} end
local fence = redis.call('INCR', KEYS[2])
local previous = redis.call('GET', KEYS[3]) or ''
local now = redis.call('TIME')
local lease = {node = ARGV[1], url = ARGV[2], fence = fence, since = now[1] * 1000 + math.floor(now[2] / 1000)}
if ARGV[3] ~= '' then
  lease.file = ARGV[3]
elseif previous ~= '' then
  lease.file = cjson.decode(previous).file
end
local value = cjson.encode(lease)
redis.call('SET', KEYS[1], value, 'PX', ARGV[4])
lease.released = false
redis.call('SET', KEYS[3], cjson.encode(lease))
return {1, value, previous}
`;

/** Whether the decoded lease in `current` is ARGV[1]'s (node) at fence ARGV[2]. */
const OWNED = `
local function owned(current)
  local lease = cjson.decode(current)
  if lease.node ~= ARGV[1] or lease.fence ~= tonumber(ARGV[2]) then return nil end
  return lease
end
`;

/**
 * KEYS lease, last; ARGV node, fence, ttl ms, file ('' to keep). Compare-and-renew: extends the
 * lease only if node and fence match, recording the new file; answers the lease value or nil.
 */
export const RENEW = `${OWNED}
local current = redis.call('GET', KEYS[1])
if not current then return nil end
local lease = owned(current)
if not lease then return nil end
if ARGV[4] == '' then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return current
end
lease.file = ARGV[4]
local value = cjson.encode(lease)
redis.call('SET', KEYS[1], value, 'PX', ARGV[3])
lease.released = false
redis.call('SET', KEYS[2], cjson.encode(lease))
return value
`;

/**
 * KEYS lease, last; ARGV node, fence. Compare-and-delete: removes the lease only if node and
 * fence match and marks the last holder released (the next owner needs no storage fence).
 */
export const RELEASE = `${OWNED}
local current = redis.call('GET', KEYS[1])
if not current then return 0 end
local lease = owned(current)
if not lease then return 0 end
redis.call('DEL', KEYS[1])
lease.released = true
redis.call('SET', KEYS[2], cjson.encode(lease))
return 1
`;

/** KEYS leases. Answers `{value or false, pttl}` per key, in one round trip. */
export const READ = `
local out = {}
for i, key in ipairs(KEYS) do
  out[2 * i - 1] = redis.call('GET', key)
  out[2 * i] = redis.call('PTTL', key)
end
return out
`;
