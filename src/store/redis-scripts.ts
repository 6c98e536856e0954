/**
 * The Lua scripts of the Redis store (`redis-store.ts`). Redis runs a script as one atomic
 * step: no other client's command runs between two of its calls, so every check-then-write of
 * the shared state happens inside one of these, never as read-modify-write from Node.
 *
 * Conventions shared by every script:
 * - Numbers that may be epoch milliseconds (instants, scores, expiries) travel as strings and
 *   are written back by `s`: `%.17g`, which round-trips every double (Lua's own `tostring` keeps
 *   only 14 digits), or `%d` for a whole number below 10^15, the same digits for less work.
 *   Counters and counts are returned as integers.
 * - Keys a script derives from the prefix (a window's key, a lease's key) are not declared in
 *   KEYS: every key of a simulator carries the hash tag `{prefix}`, so on a Redis Cluster the
 *   derived keys share the slot (and the node) of the declared ones.
 * - Scripts run under RESP2 semantics inside Redis whatever the client speaks.
 * - The operations of the hot path (begin, a window check, a lease taken or given back, a log
 *   command, a journal entry, an ordinal) are Lua functions of their own KEYS and ARGV
 *   (`OPERATIONS`), run by {@link BATCH}: the calls of one event-loop turn, in call order, in
 *   one script call (one round trip); their bodies are the same text a script of its own runs,
 *   and a call sends only each operation's own arguments (the batch derives the keys).
 */

/**
 * Lua helpers prepended to the scripts that need them. `s` writes a whole number below 10^15
 * (every instant in epoch milliseconds) with `%d`, the same digits `%.17g` writes for it:
 * `%.17g` formats through arbitrary-precision arithmetic, one of Redis's costliest steps
 * on the hot path when each request writes several instants.
 */
const NUMBERS = `
local function s(x)
  if x % 1 == 0 and x > -1e15 and x < 1e15 then return string.format('%d', x) end
  return string.format('%.17g', x)
end
`;

/**
 * Redis's own clock in milliseconds: leases expire by server time, never by a simulated clock.
 * Read once per script call: the operations of one {@link BATCH} call run as one atomic step, so
 * they take their leases at one instant, and a call of many begins reads the clock once rather
 * than once per slot.
 */
const SERVER_MS = `
local clock_ms = nil
local function server_ms()
  if clock_ms == nil then
    local t = redis.call('TIME')
    clock_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  end
  return clock_ms
end
`;

/**
 * One check of a sliding window, recorded when admitted (`consumeSlot` in
 * `src/sim/admission/sliding-log.ts`, over a sorted set). Atomic: raising the latest instant
 * judged, pruning the window, numbering the check, deciding, recording the admitted instant,
 * indexing the window for the sweep and, every `sweepEvery`-th check, deleting windows idle for
 * a whole window.
 *
 * KEYS: high, checks, the window, the window index. ARGV: window id, now, limit, windowMs,
 * window key prefix, sweepEvery, sweepMax. Returns {allowed 0|1, remaining, reset, order, at}.
 */
const CONSUME_BODY = `
local now = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local window = tonumber(ARGV[4])
local stored = redis.call('GET', KEYS[1])
stored = stored and tonumber(stored)
local t = now
if stored and stored > now then
  t = stored
elseif stored ~= now then
  redis.call('SET', KEYS[1], s(now))
end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', s(t - window))
local held = redis.call('ZCARD', KEYS[3])
local order = redis.call('INCR', KEYS[2])
local allowed, remaining, reset
if held >= limit then
  allowed = 0
  remaining = 0
  if held > 0 then
    local e = redis.call('ZRANGE', KEYS[3], s(held - limit), s(held - limit), 'WITHSCORES')
    reset = tonumber(e[2]) + window
  else
    reset = t + window
  end
else
  allowed = 1
  redis.call('ZADD', KEYS[3], s(t), s(order))
  redis.call('ZADD', KEYS[4], s(t + window), ARGV[1])
  remaining = limit - held - 1
  local e = redis.call('ZRANGE', KEYS[3], '0', '0', 'WITHSCORES')
  reset = tonumber(e[2]) + window
end
local every = tonumber(ARGV[6])
if every > 0 and order % every == 0 then
  local idle = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', s(t), 'LIMIT', 0, tonumber(ARGV[7]))
  if #idle > 0 then
    local keys = {}
    for i, id in ipairs(idle) do keys[i] = ARGV[5] .. id end
    redis.call('UNLINK', unpack(keys))
    redis.call('ZREM', KEYS[4], unpack(idle))
  end
end
return {allowed, remaining, s(reset), order, s(t)}
`;

/**
 * What a window holds at an instant (`peekSlots`), recording nothing. Atomic: the two counts
 * and the instant read agree with each other.
 *
 * KEYS: the window. ARGV: now, limit, windowMs. Returns {held, reset or ''}.
 */
export const PEEK = `${NUMBERS}
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local expired = redis.call('ZCOUNT', KEYS[1], '-inf', s(tonumber(ARGV[1]) - window))
local held = redis.call('ZCARD', KEYS[1]) - expired
if held == 0 then return {0, ''} end
local freeing = expired
if held >= limit then freeing = expired + held - limit end
local e = redis.call('ZRANGE', KEYS[1], freeing, freeing, 'WITHSCORES')
return {held, s(tonumber(e[2]) + window)}
`;

/**
 * Takes an in-flight slot unless the cap is reached. Atomic: dropping expired leases, counting
 * the live ones, adding the new lease with its expiry (server time + ttl) and listing the
 * fingerprint among those holding leases (every time: one whose listing was lost, say to an
 * eviction, is listed again).
 *
 * KEYS: the fingerprint's lease set, the set of fingerprints. ARGV: fingerprint, cap, lease, ttlMs.
 * Returns {acquired 0|1, held before}.
 */
const ACQUIRE_BODY = `
local now = server_ms()
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. s(now))
local held = redis.call('ZCARD', KEYS[1])
if held >= tonumber(ARGV[2]) then return {0, held} end
redis.call('ZADD', KEYS[1], s(now + tonumber(ARGV[4])), ARGV[3])
redis.call('SADD', KEYS[2], ARGV[1])
return {1, held}
`;

/**
 * Extends the leases of one process. Atomic per call: each lease still alive (expiry not
 * passed) gets expiry = server time + ttl; an expired one stays expired (its slot may already
 * be someone else's).
 *
 * KEYS: the lease sets, one per lease. ARGV: ttlMs, then the leases in the order of KEYS.
 * Returns the number renewed.
 */
export const RENEW = `${NUMBERS}${SERVER_MS}
local now = server_ms()
local expiry = s(now + tonumber(ARGV[1]))
local renewed = 0
for i, key in ipairs(KEYS) do
  local current = redis.call('ZSCORE', key, ARGV[i + 1])
  if current and tonumber(current) >= now then
    redis.call('ZADD', key, 'XX', expiry, ARGV[i + 1])
    renewed = renewed + 1
  end
end
return renewed
`;

/**
 * Gives a lease back. Atomic: removing it and, when it was the fingerprint's last, unlisting
 * the fingerprint.
 *
 * KEYS: the fingerprint's lease set, the set of fingerprints. ARGV: fingerprint, lease.
 */
const RELEASE_BODY = `
redis.call('ZREM', KEYS[1], ARGV[2])
if redis.call('ZCARD', KEYS[1]) == 0 then redis.call('SREM', KEYS[2], ARGV[1]) end
return 0
`;

/**
 * Live leases of every fingerprint together. Atomic: one instant of server time for all of
 * them; expired leases are dropped and fingerprints left without any are unlisted on the way.
 *
 * KEYS: the set of fingerprints. ARGV: lease key prefix. Returns the count.
 */
export const TOTAL = `${NUMBERS}${SERVER_MS}
local now = server_ms()
local sum = 0
for _, fp in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local key = ARGV[1] .. fp
  redis.call('ZREMRANGEBYSCORE', key, '-inf', '(' .. s(now))
  local n = redis.call('ZCARD', key)
  if n == 0 then redis.call('SREM', KEYS[1], fp) end
  sum = sum + n
end
return sum
`;

/**
 * Live leases of one fingerprint, by server time (read only).
 *
 * KEYS: the fingerprint's lease set. Returns the count.
 */
export const HELD = `${NUMBERS}${SERVER_MS}
return redis.call('ZCOUNT', KEYS[1], s(server_ms()), '+inf')
`;

/**
 * The start of requests (the begins of one batch, {@link OPERATION_GROUPS}). Atomic: numbering
 * the requests one after the other, reserving consecutive journal positions for the service
 * ones, reading the last log position and the commands after the least position the replicas
 * asking had applied, so the numbers, the positions and the commands agree. Only the first
 * begin of a batch that finds commands returns them (`shipped`, a local of {@link BATCH}): the
 * process applies its answers in batch order, so a later begin's caller finds them applied
 * (and reads what it still lacks), rather than a burst of begins ({@link BEGIN_THEN_ADMIT_BODY}
 * go one by one) each carrying the same commands in one reply.
 *
 * KEYS: req, seq, logn, log. ARGV: the least `after` of the begins, max commands, then 1 or 0
 * per begin (a service request or not). Returns {first index, first journal position (0 when
 * none is a service request), last, position1, body1, position2, body2, …}.
 */
const BEGINS_BODY = `
local n = #ARGV - 2
local services = 0
for i = 3, #ARGV do if ARGV[i] == '1' then services = services + 1 end end
local index = redis.call('INCRBY', KEYS[1], s(n)) - n + 1
local seq = 0
if services > 0 then seq = redis.call('INCRBY', KEYS[2], s(services)) - services + 1 end
local last = tonumber(redis.call('GET', KEYS[3]) or '0')
local after = tonumber(ARGV[1])
local out = {index, seq, last}
if last > after and not shipped then
  shipped = true
  for _, e in ipairs(redis.call('XRANGE', KEYS[4], s(after + 1), '+', 'COUNT', ARGV[2])) do
    out[#out + 1] = e[1]
    out[#out + 1] = e[2][2]
  end
end
return out
`;

/**
 * Logs one command. Atomic: taking the next position and adding the command under the stream
 * id `<position>-1`, so positions are consecutive and the log holds them in order.
 *
 * KEYS: logn, log. ARGV: the command. Returns its position.
 */
const APPEND_BODY = `
local n = redis.call('INCR', KEYS[1])
redis.call('XADD', KEYS[2], s(n) .. '-1', 'c', ARGV[1])
return n
`;

/**
 * Starts a new history. Atomic: deleting every window (listed by the window index), the
 * counters, the log, the journal and the ordinals, then logging the reset command at the next
 * position (positions keep increasing across resets: `logn` survives) and restarting the
 * journal, complete, from `now`. Settings and leases survive.
 *
 * KEYS: req, seq, checks, high, log, journal, journal info, ordinal, window index, logn.
 * ARGV: window key prefix, the command, now. Returns the command's position.
 */
export const RESET = `${NUMBERS}
local ids = redis.call('ZRANGE', KEYS[9], 0, -1)
for i = 1, #ids, 500 do
  local batch = {}
  for j = i, math.min(i + 499, #ids) do batch[#batch + 1] = ARGV[1] .. ids[j] end
  redis.call('UNLINK', unpack(batch))
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[8], KEYS[9])
local n = redis.call('INCR', KEYS[10])
redis.call('XADD', KEYS[5], s(n) .. '-1', 'c', ARGV[2])
redis.call('HSET', KEYS[7], 'since', ARGV[3], 'appended', '0', 'cleared', '0', 'history', s(n), 'lost', '0')
redis.call('HDEL', KEYS[7], 'clearedAt')
return n
`;

/**
 * Records journal entries (those of one batch, {@link OPERATION_GROUPS}). Atomic: adding each,
 * trimming the journal to exactly its capacity (oldest first), counting them as appended and, on
 * a journal that never started, starting it at the first entry's instant.
 *
 * KEYS: journal, journal info. ARGV: capacity, then per entry: the entry as
 * `redis-journal-codec.ts` encodes it, its instant.
 */
const JOURNALS_BODY = `
for i = 2, #ARGV, 2 do redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[1], '*', 'e', ARGV[i]) end
redis.call('HINCRBY', KEYS[2], 'appended', s((#ARGV - 1) / 2))
redis.call('HSETNX', KEYS[2], 'since', ARGV[3])
return 0
`;

/**
 * Records a journal entry late: one whose first call never reached Redis (its request was
 * answered meanwhile). Atomic: appended as {@link JOURNALS_BODY} appends, unless the history it
 * belongs to was erased since, whichever process erased it: dropped when its request began
 * before the last reset (its log position before the reset's, `history`: a virtual clock
 * starts over at a reset, so instants cannot tell) or its instant is before the last clear
 * (`clearedAt`); counted as lost when its instant is the clear's own (on a frozen clock, before
 * or after it: unknown). Runs inside {@link BATCH} only.
 *
 * KEYS: journal, journal info. ARGV: the entry (encoded), capacity, its instant, the log
 * position its request began at.
 */
const JOURNAL_LATE_BODY = `
local h = redis.call('HMGET', KEYS[2], 'history', 'clearedAt')
if tonumber(ARGV[4]) < tonumber(h[1] or '0') then return 0 end
local cleared = tonumber(h[2] or '-1')
local at = tonumber(ARGV[3])
if at < cleared then return 0 end
if at == cleared then
  redis.call('HINCRBY', KEYS[2], 'lost', '1')
  return 0
end
return run.journals(KEYS, {ARGV[2], ARGV[1], ARGV[3]})
`;

/**
 * Counts journal entries lost (their requests were answered, their entries never reached Redis
 * and could not be kept to append late): the journal is incomplete until its next reset or
 * clear. Not counted when the newest of them began before the last reset (that history is
 * gone, they with it). The process sends one count with the newest position only: lost entries
 * on both sides of a reset are all charged to the new history (the journal says it is
 * incomplete when it may not be, never the other way). KEYS: journal info. ARGV: how many, the
 * newest one's log position.
 */
const JOURNAL_LOST_BODY = `
if tonumber(ARGV[2]) < tonumber(redis.call('HGET', KEYS[1], 'history') or '0') then return 0 end
redis.call('HINCRBY', KEYS[1], 'lost', ARGV[1])
return 0
`;

/**
 * What the journal knows about itself (read only, one consistent instant).
 *
 * KEYS: journal, journal info. Returns {size, since, appended, cleared, the oldest kept entry
 * (encoded) when entries were dropped else '', entries lost}.
 */
export const JOURNAL_INFO = `
local size = redis.call('XLEN', KEYS[1])
local h = redis.call('HMGET', KEYS[2], 'since', 'appended', 'cleared', 'lost')
local appended = tonumber(h[2] or '0')
local first = ''
if appended > size and size > 0 then
  first = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)[1][2][2]
end
return {size, h[1] or '0', appended, h[3] or '0', first, tonumber(h[4] or '0')}
`;

/**
 * One page of the journal, oldest first (read only): the entries from `start` on, as one JSON
 * array of the encoded entries (`redis-journal-codec.ts`: each is a JSON array itself), so a
 * page is one string to read and one `JSON.parse` rather than a reply of thousands of nested
 * entries.
 *
 * KEYS: journal. ARGV: the first stream id to read (`-` for the oldest), the most entries to
 * read. Returns {entries read, the last one's stream id or '', '[entry,entry,…]'}.
 */
export const JOURNAL_PAGE = `
local page = redis.call('XRANGE', KEYS[1], ARGV[1], '+', 'COUNT', ARGV[2])
local n = #page
if n == 0 then return {0, '', '[]'} end
local values = {}
for i = 1, n do values[i] = page[i][2][2] end
return {n, page[n][1], '[' .. table.concat(values, ',') .. ']'}
`;

/**
 * Drops the journal's entries. Atomic: deleting them and marking the journal incomplete from
 * `now` (the windows keep their state).
 *
 * KEYS: journal, journal info. ARGV: now.
 */
export const JOURNAL_CLEAR = `
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[2], 'since', ARGV[1], 'appended', '0', 'cleared', '1', 'clearedAt', ARGV[1], 'lost', '0')
return 0
`;

/**
 * Binds the store to a simulator's settings. Atomic: the first process writes them all; a
 * later one gets back each field whose stored value differs from its own.
 *
 * KEYS: meta. ARGV: field, value, field, value, … Returns {field, stored value, …} (empty when
 * the settings agree or were just written).
 */
export const OPEN = `
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], unpack(ARGV))
  return {}
end
local out = {}
for i = 1, #ARGV, 2 do
  local stored = redis.call('HGET', KEYS[1], ARGV[i])
  if stored ~= ARGV[i + 1] then
    out[#out + 1] = ARGV[i]
    out[#out + 1] = stored or ''
  end
end
return out
`;

/**
 * The store's epoch: a random id written once, with the data. KEYS[1] = epoch; ARGV[1] = the
 * id to write when there is none. Returns the id the store holds (ARGV[1] when it held none).
 * A process that remembers another id is talking to a store that lost its data since.
 */
export const EPOCH = `
local held = redis.call('GET', KEYS[1])
if held then return held end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]
`;

/**
 * Counts one named ordinal (a scenario's draw ordinal per subject).
 *
 * KEYS: the ordinal hash. ARGV: the name. Returns the new count, from 1.
 */
const ORDINAL_BODY = `
return redis.call('HINCRBY', KEYS[1], ARGV[1], '1')
`;

/**
 * Takes an in-flight slot (`ACQUIRE_BODY`) and, only when it is taken, checks a window
 * (`CONSUME_BODY`): the in-flight gate and the per-key quota, consecutive stages of a request,
 * in one step. Runs inside {@link BATCH} only (it calls the two operations through `run`).
 *
 * KEYS: the acquire's two keys, then the consume's four. ARGV: the acquire's four arguments,
 * then the consume's seven. Returns {the acquire's answer} or {the acquire's, the consume's}.
 * A check that fails (a key of the wrong type, a full Redis) gives the slot back before the
 * operation fails: the caller never learns the lease, so it could neither renew nor release it,
 * and the slot would stay held until the lease expired.
 */
const ACQUIRE_THEN_CONSUME_BODY = `
local slot = run.acquire({KEYS[1], KEYS[2]}, {ARGV[1], ARGV[2], ARGV[3], ARGV[4]})
if slot[1] ~= 1 then return {slot} end
local ok, consumed = pcall(run.consume, {KEYS[3], KEYS[4], KEYS[5], KEYS[6]}, {ARGV[5], ARGV[6], ARGV[7], ARGV[8], ARGV[9], ARGV[10], ARGV[11]})
if not ok then
  run.release({KEYS[1], KEYS[2]}, {ARGV[1], ARGV[3]})
  error(consumed)
end
return {slot, consumed}
`;

/**
 * A service request's begin and, when the log holds no position but the one its replica had
 * applied, the in-flight gate's ask: the slot, and the per-key quota with it when asked
 * ({@link ACQUIRE_THEN_CONSUME_BODY}), in one step: one round trip where there were two. When
 * the log moved, nothing is taken (the process catches up and asks again). A failing ask (a key
 * of the wrong type) leaves the request begun and says why. Runs inside {@link BATCH} only, in
 * call order (never grouped with other begins: the ask must run where it was called).
 *
 * A second window may follow (the route's per-endpoint window, when the stages between the
 * quota and it would let the request reach it): checked only when the slot was taken and the
 * first window, when asked, admitted the request, as the stages would check it. When it fails
 * (a key of the wrong type) the admission stands without it and the process checks the window
 * at its stage, where the same failure answers 503.
 *
 * KEYS: the begins' four, then the acquire-then-consume's six, then the second window's.
 * ARGV: after, max commands, then the acquire's four arguments, 1|0 (a window asked), then the
 * consume's seven, then 1|0 (a second window asked) and its id, now, limit and windowMs.
 * Returns {begun} (the log moved), {begun, 1, {slot, consumed or false, second or false}} or
 * {begun, 0, the error}.
 */
const BEGIN_THEN_ADMIT_BODY = `
local begun = run.begins({KEYS[1], KEYS[2], KEYS[3], KEYS[4]}, {ARGV[1], ARGV[2], '1'})
if begun[3] ~= tonumber(ARGV[1]) then return {begun} end
local ok, admitted
if ARGV[7] == '1' then
  ok, admitted = pcall(run.acquireThenConsume, {KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10]}, {ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[8], ARGV[9], ARGV[10], ARGV[11], ARGV[12], ARGV[13], ARGV[14]})
else
  ok, admitted = pcall(run.acquire, {KEYS[5], KEYS[6]}, {ARGV[3], ARGV[4], ARGV[5], ARGV[6]})
  if ok then admitted = {admitted} end
end
if not ok then
  if type(admitted) == 'table' then return {begun, 0, tostring(admitted.err or admitted)} end
  return {begun, 0, tostring(admitted)}
end
admitted[2] = admitted[2] or false
admitted[3] = false
if ARGV[15] == '1' and admitted[1][1] == 1 and (ARGV[7] ~= '1' or admitted[2][1] == 1) then
  local second, consumed = pcall(run.consume, {KEYS[7], KEYS[8], KEYS[11], KEYS[10]}, {ARGV[16], ARGV[17], ARGV[18], ARGV[19], ARGV[12], ARGV[13], ARGV[14]})
  if second then admitted[3] = consumed end
end
return {begun, 1, admitted}
`;

/** An operation's `args` when the call sends their number first (a grouped operation, {@link OPERATION_GROUPS}). */
export const COUNTED = -1;

/** Every how many window checks idle windows are swept (the `consume` operation), and how many at most per sweep. */
export const SWEEP_EVERY = 4096;
export const SWEEP_MAX = 1000;

/**
 * The operations {@link BATCH} runs, by the name a call gives: each body above as a Lua function
 * of (KEYS, ARGV), and what a call sends for it: only its own arguments (`args` of them, `a` in
 * Lua), from which the batch derives the operation's keys (`keys`, under the simulator's key
 * prefix `base`) and arguments (`argv`, `a` itself unless given), so a batch carries no key name.
 * The names after `base` are the store's keys (`redis-store.ts`, its key layout).
 */
export const OPERATIONS = {
  /** window id, now, limit, windowMs. */
  consume: {
    body: CONSUME_BODY,
    args: 4,
    keys: `{base .. 'high', base .. 'checks', base .. 'win:' .. a[1], base .. 'windows'}`,
    argv: `{a[1], a[2], a[3], a[4], base .. 'win:', '${SWEEP_EVERY}', '${SWEEP_MAX}'}`,
  },
  /** fingerprint, cap, lease, ttlMs. */
  acquire: { body: ACQUIRE_BODY, args: 4, keys: `{base .. 'lease:' .. a[1], base .. 'leases'}` },
  /** fingerprint, cap, lease, ttlMs, window id, now, limit, windowMs. */
  acquireThenConsume: {
    body: ACQUIRE_THEN_CONSUME_BODY,
    args: 8,
    keys: `{base .. 'lease:' .. a[1], base .. 'leases', base .. 'high', base .. 'checks', base .. 'win:' .. a[5], base .. 'windows'}`,
    argv: `{a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], base .. 'win:', '${SWEEP_EVERY}', '${SWEEP_MAX}'}`,
  },
  /** fingerprint, lease. */
  release: { body: RELEASE_BODY, args: 2, keys: `{base .. 'lease:' .. a[1], base .. 'leases'}` },
  /** the command. */
  append: { body: APPEND_BODY, args: 1, keys: `{base .. 'logn', base .. 'log'}` },
  /** the ordinal's name. */
  ordinal: { body: ORDINAL_BODY, args: 1, keys: `{base .. 'ordinal'}` },
  /** Counted, the begins of a batch ({@link OPERATION_GROUPS}): the least after, max commands, then service 1|0 per begin. */
  begins: { body: BEGINS_BODY, args: COUNTED, keys: `{base .. 'req', base .. 'seq', base .. 'logn', base .. 'log'}` },
  /**
   * after, max commands, fingerprint, cap, lease, ttlMs, 1|0 (a window asked), window id, now,
   * limit, windowMs (empty without a window), then the same five for the second window.
   */
  beginThenAdmit: {
    body: BEGIN_THEN_ADMIT_BODY,
    args: 16,
    keys: `{base .. 'req', base .. 'seq', base .. 'logn', base .. 'log', base .. 'lease:' .. a[3], base .. 'leases', base .. 'high', base .. 'checks', base .. 'win:' .. a[8], base .. 'windows', base .. 'win:' .. a[13]}`,
    argv: `{a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], base .. 'win:', '${SWEEP_EVERY}', '${SWEEP_MAX}', a[12], a[13], a[14], a[15], a[16]}`,
  },
  /** Counted, the journal entries of a batch: capacity, then per entry the entry (encoded) and its instant. */
  journals: { body: JOURNALS_BODY, args: COUNTED, keys: `{base .. 'journal', base .. 'journal:info'}` },
  /** The entry (encoded), capacity, its instant, its request's log position: an entry appended late. */
  journalLate: { body: JOURNAL_LATE_BODY, args: 4, keys: `{base .. 'journal', base .. 'journal:info'}` },
  /** How many journal entries were lost, the newest one's log position. */
  journalLost: { body: JOURNAL_LOST_BODY, args: 2, keys: `{base .. 'journal:info'}` },
} as const satisfies Record<string, { readonly body: string; readonly args: number; readonly keys: string; readonly argv?: string }>;

/** The name of an operation {@link BATCH} runs. */
export type Operation = keyof typeof OPERATIONS;

/**
 * A call whose calls in one batch go to Redis together, as one operation of another name:
 * fewer operations for the batch to carry, decode and run, and the operation does once what
 * each call would do (numbering the begins with one INCRBY, reading the log once). A group
 * stands where its first call stood in the batch, and its calls are answered there, in call
 * order: Redis ran them at that place, so no answer of a later operation reaches its caller
 * before theirs (a replica applies the log in order).
 */
export interface OperationGroup {
  /** The arguments one call takes. */
  readonly args: number;
  /** The operation that runs the calls together: its arguments are counted (the batch sends their number first). */
  readonly operation: Operation;
  /** Its arguments, from the calls' own, in call order. */
  join(calls: readonly (readonly string[])[]): string[];
  /** What each call would have returned alone, in call order, from what the grouped operation returned. */
  split(returned: unknown, calls: readonly (readonly string[])[]): unknown[];
}

/**
 * The calls that go grouped: `begin` (service 1|0, after, max commands; answers {index, seq,
 * last, position1, body1, …}) and `journal` (the entry encoded, capacity, the entry's instant).
 */
export const OPERATION_GROUPS = {
  begin: {
    args: 3,
    operation: 'begins',
    join: (calls) => {
      let after = Number(calls[0]![1]);
      for (const call of calls) after = Math.min(after, Number(call[1]));
      const joined = [String(after), calls[0]![2]!];
      for (const call of calls) joined.push(call[0]!);
      return joined;
    },
    split: (returned, calls) => {
      const [first, firstSeq, last, ...commands] = returned as (number | string)[];
      let seq = Number(firstSeq);
      return calls.map((call, i) => [Number(first) + i, call[0] === '1' ? seq++ : 0, last, ...commands]);
    },
  },
  journal: {
    args: 3,
    operation: 'journals',
    join: (calls) => {
      const joined = [calls[0]![1]!];
      for (const call of calls) joined.push(call[0]!, call[2]!);
      return joined;
    },
    split: (_returned, calls) => calls.map(() => 0),
  },
} as const satisfies Record<string, OperationGroup>;

/** What the store asks the batch for: an operation, or a call that goes grouped ({@link OPERATION_GROUPS}). */
export type Call = Operation | keyof typeof OPERATION_GROUPS;

/**
 * Several operations in one script call, in the order given: Redis runs the whole call as one
 * atomic step, so each operation sees exactly what the ones before it wrote, as it would
 * running alone right after them. One operation failing (a key of the wrong type) fails that
 * operation only: what it wrote before the failure stays, as with a script of its own.
 *
 * KEYS: the simulator's key prefix, `{<prefix>}:` (it routes the call on a cluster; every key
 * an operation derives from it carries the same hash tag). ARGV: the number of operations, then
 * per operation its name and its arguments ({@link OPERATIONS}: a fixed number per name, or
 * their number first for a grouped operation, {@link COUNTED}).
 * Returns, as one JSON text (`cjson`: one string for the client to read and `JSON.parse`, not
 * a reply of nested arrays to decode element by element), one pair per operation: [1, what it
 * returned] or [0, the error]; a name it does not know fails the whole call (its arguments
 * cannot be told from the next operation's). What operations return is strings (instants
 * travel as strings) and integers: counts, and counters numbered since a reset or, for log
 * positions, ever; `cjson` writes numbers with 14 significant digits, exact below 10^14.
 */
export const BATCH = `${NUMBERS}${SERVER_MS}
local run = {}
local shape = {}
local base = KEYS[1]
local shipped = false
${Object.entries(OPERATIONS)
  .map(
    ([name, op]) =>
      `run['${name}'] = function(KEYS, ARGV)\n${op.body}end\n` +
      `shape['${name}'] = {${op.args}, function(a) return ${op.keys}, ${'argv' in op ? op.argv : 'a'} end}\n`,
  )
  .join('')}
local out = {}
local i = 2
for o = 1, tonumber(ARGV[1]) do
  local name = ARGV[i]
  local s = shape[name]
  if s == nil then return redis.error_reply('unknown operation ' .. tostring(name)) end
  local count = s[1]
  local at = i
  if count < 0 then
    count = tonumber(ARGV[i + 1])
    at = i + 1
  end
  local a = {}
  for j = 1, count do a[j] = ARGV[at + j] end
  i = at + 1 + count
  local k, v = s[2](a)
  local ok, result = pcall(run[name], k, v)
  if ok then
    out[o] = {1, result}
  elseif type(result) == 'table' then
    out[o] = {0, tostring(result.err or result)}
  else
    out[o] = {0, tostring(result)}
  end
end
return cjson.encode(out)
`;
