-- wrk script: POST /api/receipts with a fresh caller-assigned id per request (two lines, a webhook-free
-- receipt, as a checkout would create). The key comes from BENCH_KEY (bench/load.sh sets it).

local key = os.getenv("BENCH_KEY") or ""
local thread_counter = 0

function setup(thread)
  thread_counter = thread_counter + 1
  thread:set("thread_id", thread_counter)
end

function init(args)
  counter = 0
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["X-Gateway-Subscription-Key"] = key
end

function request()
  counter = counter + 1
  local body = string.format(
    '{"id":"load-%d-%d","lineItems":[{"label":"Coffee","priceUsd":3.5},{"label":"Cake","priceUsd":4.25}],' ..
    '"totalUsd":7.75,"metadata":{"cart":%d}}',
    thread_id, counter, counter)
  return wrk.format(nil, nil, nil, body)
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format("non-2xx or socket errors: status=%d connect=%d read=%d write=%d timeout=%d\n",
    errors.status, errors.connect, errors.read, errors.write, errors.timeout))
end
