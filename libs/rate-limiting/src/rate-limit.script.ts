/**
 * The whole decision for each request of a batch, run atomically by Redis so that no window admits
 * more than its limit however many processes share the load. The requests are decided in order, each
 * seeing what the ones before it counted, exactly as if each had its own call:
 *
 * 0. what the request gives back is taken off its counters (a request counted against its client
 *    address before its key turned out valid is then counted against its account only);
 * 1. a banned key is refused and nothing is counted;
 * 2. every window is read; only when all have room is each counter incremented (a refused request
 *    spends no quota, and a request refused by the day window spends no minute slot);
 * 3. a refusal of a key is logged; more than `ban after` refusals within the look-back bans the key
 *    and clears the log, so the count starts afresh when the ban ends.
 *
 * The clock is Redis's (`TIME`), so windows align across processes whatever their clocks say. Window
 * counters are keyed by their start (`<key>:<start>`), which the script derives, so they are named
 * in KEYS by prefix only: on a Redis Cluster that is allowed because the derived name keeps the
 * prefix's hash tag, and so its slot (see `rate-limit.keys.ts`).
 *
 * KEYS: for each request, its window counter prefixes, then, when its key is tracked for the ban, its
 *       ban flag and its refusal log, then the full names of the counters it gives a request back to.
 * ARGV: ban after, ban ms, look-back ms, a token unique to the batch (for the refusal logs), the
 *       number of requests, then for each request: its window count, 1 when its key is tracked for
 *       the ban (else 0), its count of counters to give back to, and limit and length in seconds for
 *       each of its windows.
 * Returns: Redis time in ms, then for each request: admitted (1/0), ban ms left, and count and reset
 *          (Unix s) per window.
 */
export const RATE_LIMIT_SCRIPT = `
local ban_after = tonumber(ARGV[1])
local ban_ms = tonumber(ARGV[2])
local look_back_ms = tonumber(ARGV[3])
local token = ARGV[4]
local requests = tonumber(ARGV[5])

local time = redis.call('TIME')
local now = tonumber(time[1])
local now_ms = now * 1000 + math.floor(tonumber(time[2]) / 1000)

local result = { now_ms }
local key_at, arg_at = 0, 5
for request = 1, requests do
  local windows = tonumber(ARGV[arg_at + 1])
  local tracks_ban = ARGV[arg_at + 2] == '1'
  local refunds = tonumber(ARGV[arg_at + 3])
  arg_at = arg_at + 3
  local ban_key = KEYS[key_at + windows + 1]
  local refusals_key = KEYS[key_at + windows + 2]
  local refunds_at = key_at + windows + (tracks_ban and 2 or 0)

  -- A counter that has expired since (its window ended) has nothing left to give back.
  for i = 1, refunds do
    local counter = KEYS[refunds_at + i]
    if tonumber(redis.call('GET', counter) or '0') > 0 then redis.call('DECR', counter) end
  end

  local banned_ms = 0
  if tracks_ban then banned_ms = math.max(redis.call('PTTL', ban_key), 0) end
  local admitted = banned_ms == 0

  local counters, counts, resets = {}, {}, {}
  for i = 1, windows do
    local limit = tonumber(ARGV[arg_at + 2 * i - 1])
    local length = tonumber(ARGV[arg_at + 2 * i])
    local start = now - (now % length)
    counters[i] = KEYS[key_at + i] .. ':' .. start
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
    redis.call('ZADD', refusals_key, now_ms, token .. ':' .. request)
    redis.call('PEXPIRE', refusals_key, look_back_ms)
    if redis.call('ZCARD', refusals_key) > ban_after then
      redis.call('SET', ban_key, '1', 'PX', ban_ms)
      redis.call('DEL', refusals_key)
      banned_ms = ban_ms
    end
  end

  result[#result + 1] = admitted and 1 or 0
  result[#result + 1] = banned_ms
  for i = 1, windows do
    result[#result + 1] = counts[i]
    result[#result + 1] = resets[i]
  end
  key_at = refunds_at + refunds
  arg_at = arg_at + 2 * windows
end
return result
`;
