-- wrk script of bench/compare.sh: one fixed request per run, and a machine-readable result line.
--
-- Environment (set by compare.sh):
--   BENCH_METHOD  GET (default) or POST
--   BENCH_BODY    the request body (POST), sent as application/json; the same bytes every request, so wrk
--                 formats the request once (no Lua runs per request, which would slow the client)
--   BENCH_KEY     optional X-Gateway-Subscription-Key
-- done() prints one line that compare.sh parses (http_errors: answers with status >= 400, as wrk counts
-- them; socket_errors: connect, read, write and timeout errors):
--   BENCH_RESULT requests=N seconds=S rps=R p50_us=P p99_us=Q http_errors=E socket_errors=F

local method = os.getenv("BENCH_METHOD") or "GET"
local body = os.getenv("BENCH_BODY")
local key = os.getenv("BENCH_KEY")

wrk.method = method
if body ~= nil and body ~= "" then
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
end
if key ~= nil and key ~= "" then
  wrk.headers["X-Gateway-Subscription-Key"] = key
end

function done(summary, latency, requests)
  local errors = summary.errors
  local seconds = summary.duration / 1e6
  local rps = 0
  if seconds > 0 then
    rps = summary.requests / seconds
  end
  io.write(string.format(
    "BENCH_RESULT requests=%d seconds=%.3f rps=%.1f p50_us=%d p99_us=%d http_errors=%d socket_errors=%d\n",
    summary.requests, seconds, rps, latency:percentile(50), latency:percentile(99), errors.status,
    errors.connect + errors.read + errors.write + errors.timeout))
end
