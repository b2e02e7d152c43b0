-- wrk script: POST /api/inventory upserts with varying SKUs.
-- Each thread cycles through 1000 SKUs of its own, so the run mixes creates (first pass) and updates
-- (later passes), like a catalog sync. The key comes from BENCH_KEY (bench/load.sh sets it).

local key = os.getenv("BENCH_KEY") or ""
local thread_counter = 0
local threads = {}

function setup(thread)
  thread_counter = thread_counter + 1
  thread:set("thread_id", thread_counter)
  table.insert(threads, thread)
end

function init(args)
  counter = 0
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["X-Gateway-Subscription-Key"] = key
end

function request()
  counter = counter + 1
  local n = counter % 1000
  local body = string.format(
    '{"sku":"LOAD-%d-%04d","name":"Load product %d","priceUsd":%d.%02d,"stockQty":%d,' ..
    '"category":"load","tags":["load","t%d"],"taxable":%s}',
    thread_id, n, n, n % 97 + 1, n % 100, n % 40, n % 7, (n % 2 == 0) and "true" or "false")
  return wrk.format(nil, nil, nil, body)
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format("non-2xx or socket errors: status=%d connect=%d read=%d write=%d timeout=%d\n",
    errors.status, errors.connect, errors.read, errors.write, errors.timeout))
end
