"""The Lua scripts of the Redis channel (run atomically on the server by RedisBroker, broker.py), and the keys and
timings that say whether Redis itself may just have been away."""

from __future__ import annotations

PREFIX = "scene-agent:"
CLAIM_TTL_MS = 3000  # a waiter that stops renewing (killed, cut off) stops counting as waiting after this

# Whether Redis itself may have been away, so that a session or a claim that is missing may only not be back yet,
# and a refusal (404, 410) would be false. Two signs:
# - Every waiting process stamps `pulse` (Redis' own clock, ms) each time it renews its claims (HEARTBEAT_S). When
#   the stamp is older than PULSE_GAP_MS, nobody has renewed anything for a while (Redis stalled, or was out of
#   reach of every waiter; or every waiter has ended): that quiet is given RECOVERY_MS (`recovering`), time for live
#   waiters to reconnect and renew, during which the answer is "recovering" (503, retry). A quiet is given its
#   grace once (`quiet` remembers which stamp it was), so when every waiter really is gone, refusals come after
#   RECOVERY_MS; where no waiter ever stamped, none is given.
# - A Redis that restarted without its data has no stamp at all: the API server sees that it is another instance
#   than the one it knew (`run_id`), started less than RECOVERY_MS ago (RedisBroker.restarted_lately).
PULSE_GAP_MS = CLAIM_TTL_MS - 1000  # renewals come every HEARTBEAT_S (1 s): past this, claims are about to lapse
RECOVERY_MS = 5000  # the waiters' longest pause between retries (waiter.RETRY_MAX_S), a heartbeat, and margin
OUTAGE = f"""
local function outage(pulse_key, quiet_key, recovering_key)
  if redis.call('EXISTS', recovering_key) == 1 then return true end
  local pulse = redis.call('GET', pulse_key)
  if not pulse then return false end
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  if now - tonumber(pulse) <= {PULSE_GAP_MS} then return false end
  if redis.call('GET', quiet_key) == pulse then return false end
  redis.call('SET', quiet_key, pulse, 'PX', 86400000)
  redis.call('SET', recovering_key, pulse, 'PX', {RECOVERY_MS})
  return true
end
"""
# KEYS: session, outcome, waiting, answer, pulse, quiet, recovering. ARGV: the outcome (JSON), when its keys expire.
ANSWER = OUTAGE + """
if redis.call('EXISTS', KEYS[1]) == 0 then
  if outage(KEYS[5], KEYS[6], KEYS[7]) then return {'recovering'} end
  return {'not_found'}
end
local prior = redis.call('GET', KEYS[2])
if prior then return {'answered', prior} end
if redis.call('EXISTS', KEYS[3]) == 0 then
  if outage(KEYS[5], KEYS[6], KEYS[7]) then return {'recovering'} end
  return {'nobody_waiting'}
end
redis.call('SET', KEYS[2], ARGV[1], 'PXAT', ARGV[2])
redis.call('RPUSH', KEYS[4], ARGV[1])
redis.call('PEXPIREAT', KEYS[4], ARGV[2])
return {'done'}
"""
# KEYS: session, outcome, waiting, view, pulse, quiet, recovering. ARGV: the session with its new deadline (JSON), when
# its keys expire now.
EXTEND = OUTAGE + """
if redis.call('EXISTS', KEYS[1]) == 0 then
  if outage(KEYS[5], KEYS[6], KEYS[7]) then return {'recovering'} end
  return {'not_found'}
end
if redis.call('EXISTS', KEYS[2]) == 1 then return {'answered'} end
if redis.call('EXISTS', KEYS[3]) == 0 then
  if outage(KEYS[5], KEYS[6], KEYS[7]) then return {'recovering'} end
  return {'nobody_waiting'}
end
redis.call('SET', KEYS[1], ARGV[1], 'PXAT', ARGV[2])
if redis.call('EXISTS', KEYS[4]) == 1 then redis.call('PEXPIREAT', KEYS[4], ARGV[2]) end
return {'done'}
"""
# KEYS: pulse, quiet, recovering. 1 while an outage may explain what is missing.
RECOVERING = OUTAGE + """
if outage(KEYS[1], KEYS[2], KEYS[3]) then return 1 end
return 0
"""
# KEYS: pulse. The waiters' stamp, on Redis' clock.
PULSE = """
local t = redis.call('TIME')
redis.call('SET', KEYS[1], string.format('%d', tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)))
return 1
"""
OUTAGE_KEYS = [f"{PREFIX}pulse", f"{PREFIX}quiet", f"{PREFIX}recovering"]
# KEYS: outcome. ARGV: the outcome, expiry. The outcome recorded before, or nil when this one is now recorded.
RECORD = """
local prior = redis.call('GET', KEYS[1])
if prior then return prior end
redis.call('SET', KEYS[1], ARGV[1], 'PXAT', ARGV[2])
return false
"""
# KEYS: waiting. ARGV: the claim. Removed only while it is still this claim.
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
