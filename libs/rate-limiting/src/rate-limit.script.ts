/**
 * The whole decision for one request, run atomically by Redis so that no window admits more than
 * its limit however many processes share the load:
 *
 * 1. a banned key is refused and nothing is counted;
 * 2. every window is read; only when all have room is each counter incremented (a refused request
 *    spends no quota, and a request refused by the day window spends no minute slot);
 * 3. a refusal of a key is logged; more than `ban after` refusals within the look-back bans the key
 *    and clears the log, so the count starts afresh when the ban ends.
 *
 * The clock is Redis's (`TIME`), so windows align across processes whatever their clocks say. Window
 * counters are keyed by their start (`<key>:<start>`), which the script derives, so they are named
 * in KEYS by prefix only: fine on one Redis, not on Redis Cluster.
 *
 * KEYS: the window counter prefixes, then, when a key is tracked for the ban, its ban flag and
 *       its refusal log.
 * ARGV: window count, ban after, ban ms, look-back ms, a unique token for the refusal log, then
 *       limit and length in seconds for each window.
 * Returns: admitted (1/0), ban ms left, Redis time in ms, then count and reset (Unix s) per window.
 */
export const RATE_LIMIT_SCRIPT = `
local windows = tonumber(ARGV[1])
local ban_after = tonumber(ARGV[2])
local ban_ms = tonumber(ARGV[3])
local look_back_ms = tonumber(ARGV[4])
local tracks_ban = #KEYS > windows
local ban_key = KEYS[windows + 1]
local refusals_key = KEYS[windows + 2]

local time = redis.call('TIME')
local now = tonumber(time[1])
local now_ms = now * 1000 + math.floor(tonumber(time[2]) / 1000)

local banned_ms = 0
if tracks_ban then banned_ms = math.max(redis.call('PTTL', ban_key), 0) end
local admitted = banned_ms == 0

local counters, counts, resets = {}, {}, {}
for i = 1, windows do
  local limit = tonumber(ARGV[4 + 2 * i])
  local length = tonumber(ARGV[5 + 2 * i])
  local start = now - (now % length)
  counters[i] = KEYS[i] .. ':' .. start
  counts[i] = tonumber(redis.call('GET', counters[i]) or '0')
  resets[i] = start + length
  if counts[i] >= limit then admitted = false end
end

if admitted then
  for i = 1, windows do
    counts[i] = redis.call('INCR', counters[i])
    if counts[i] == 1 then redis.call('EXPIREAT', counters[i], resets[i]) end
  end
elseif tracks_ban and banned_ms == 0 then
  redis.call('ZREMRANGEBYSCORE', refusals_key, '-inf', now_ms - look_back_ms)
  redis.call('ZADD', refusals_key, now_ms, ARGV[5])
  redis.call('PEXPIRE', refusals_key, look_back_ms)
  if redis.call('ZCARD', refusals_key) > ban_after then
    redis.call('SET', ban_key, '1', 'PX', ban_ms)
    redis.call('DEL', refusals_key)
    banned_ms = ban_ms
  end
end

local result = { admitted and 1 or 0, banned_ms, now_ms }
for i = 1, windows do
  result[#result + 1] = counts[i]
  result[#result + 1] = resets[i]
end
return result
`;
