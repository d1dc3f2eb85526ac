/**
 * The lease operations as Lua scripts: Redis runs each one atomically, so a compare and the write
 * it guards can never interleave with another bridge's. A node's life is `node:<node id>`, a
 * random token with a PX expiry of the TTL, renewed by its node alone. A lease is a JSON value
 * `{node, url, fence, life, file?, since}` under `lease:<key>` with no expiry (`since`: when it
 * was acquired, ms since the epoch by Redis's clock): it is held while `node:<node>` still holds
 * `life`, and is free the moment that life ends (expired, or replaced by a later life).
 * `fence:<key>` is the INCR counter (the fence); `last:<key>` keeps the last holder (and whether
 * it released) with no expiry. Scripts read the holder's life by a name built from the lease (a
 * single primary, never Redis Cluster: see `redis-lease-store.ts`).
 */

/**
 * `alive(lease, prefix)`: whether the decoded lease's node still lives the lease's life, and the
 * life's PTTL when it does.
 */
const ALIVE = `
local function alive(lease, prefix)
  local key = prefix .. 'node:' .. lease.node
  if lease.life == nil or redis.call('GET', key) ~= lease.life then return nil end
  return redis.call('PTTL', key)
end
`;

/**
 * KEYS lease, fence, last, own life key; ARGV node, url, file ('' for none), life, prefix.
 * Answers `{0, holder, pttl}` when another live holder has it, `{2}` when this node's life is
 * over (it must not take anything under it), or `{1, lease, previous last ('' for none)}`. A
 * lease of a dead life is taken over like an expired one; so is this very life's own lease that
 * it no longer keeps (a release that failed). Without a file the new lease carries the last
 * one's on, so an owner that dies before recording its own leaves the resumable file known.
 */
export const ACQUIRE = `${ALIVE}
if redis.call('GET', KEYS[4]) ~= ARGV[4] then return {2} end
local current = redis.call('GET', KEYS[1])
if current then
  local holder = cjson.decode(current)
  local pttl = alive(holder, ARGV[5])
  if pttl and not (holder.node == ARGV[1] and holder.life == ARGV[4]) then return {0, current, pttl} end
end
local fence = redis.call('INCR', KEYS[2])
local previous = redis.call('GET', KEYS[3]) or ''
local now = redis.call('TIME')
local lease = {node = ARGV[1], url = ARGV[2], fence = fence, life = ARGV[4], since = now[1] * 1000 + math.floor(now[2] / 1000)}
if ARGV[3] ~= '' then
  lease.file = ARGV[3]
elseif previous ~= '' then
  lease.file = cjson.decode(previous).file
end
local value = cjson.encode(lease)
redis.call('SET', KEYS[1], value)
lease.released = false
redis.call('SET', KEYS[3], cjson.encode(lease))
return {1, value, previous}
`;

/** `owned(current, prefix)`: the decoded lease if it is ARGV[1]'s (node) at fence ARGV[2], alive. */
const OWNED = `${ALIVE}
local function owned(current, prefix)
  local lease = cjson.decode(current)
  if lease.node ~= ARGV[1] or lease.fence ~= tonumber(ARGV[2]) then return nil end
  if not alive(lease, prefix) then return nil end
  return lease
end
`;

/**
 * KEYS lease, last; ARGV node, fence, file, prefix. Records the session's file in a lease this
 * node holds alive; answers the lease value, or nil when it is not held (taken, or its life over).
 */
export const RECORD = `${OWNED}
local current = redis.call('GET', KEYS[1])
if not current then return nil end
local lease = owned(current, ARGV[4])
if not lease then return nil end
lease.file = ARGV[3]
local value = cjson.encode(lease)
redis.call('SET', KEYS[1], value)
lease.released = false
redis.call('SET', KEYS[2], cjson.encode(lease))
return value
`;

/**
 * KEYS lease, last; ARGV node, fence, prefix. Compare-and-delete: removes the lease only if node
 * and fence match and its life is not over, and marks the last holder released (the next owner
 * needs no storage fence).
 */
export const RELEASE = `${OWNED}
local current = redis.call('GET', KEYS[1])
if not current then return 0 end
local lease = owned(current, ARGV[3])
if not lease then return 0 end
redis.call('DEL', KEYS[1])
lease.released = true
redis.call('SET', KEYS[2], cjson.encode(lease))
return 1
`;

/**
 * KEYS life key; ARGV life, ttl ms. Extends this node's life if the key still holds it: answers
 * 1, or 0 when the life is over (the key expired, or a later life replaced it).
 */
export const RENEW_LIFE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/**
 * KEYS leases; ARGV prefix. Answers `{value or false, pttl}` per key, live leases only, in one
 * round trip.
 */
export const READ = `${ALIVE}
local out = {}
for i, key in ipairs(KEYS) do
  local value = redis.call('GET', key)
  local pttl = value and alive(cjson.decode(value), ARGV[1])
  out[2 * i - 1] = pttl and value or false
  out[2 * i] = pttl or -2
end
return out
`;
