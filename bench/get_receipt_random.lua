-- wrk script: GET /api/receipts/{id} of a random receipt among RECEIPTS (default 5000) created beforehand
-- as pg-1 .. pg-N (bench/pg_compare.sh). The key comes from BENCH_KEY.

local key = os.getenv("BENCH_KEY") or ""
local receipts = tonumber(os.getenv("RECEIPTS") or "5000")

function init(args)
  math.randomseed(os.time() + math.floor(os.clock() * 1000000))
  wrk.headers["X-Gateway-Subscription-Key"] = key
end

function request()
  return wrk.format("GET", string.format("/api/receipts/pg-%d", math.random(1, receipts)))
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format("non-2xx or socket errors: status=%d connect=%d read=%d write=%d timeout=%d\n",
    errors.status, errors.connect, errors.read, errors.write, errors.timeout))
end
