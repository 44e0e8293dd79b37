-- One request shape per scenario, chosen by environment variables, and a machine-readable
-- summary at the end (JSON on the last line of wrk's output).
local method = os.getenv("BENCH_METHOD") or "GET"
wrk.method = method
if method == "POST" then
  wrk.body = os.getenv("BENCH_BODY") or '{"sku":"A1","qty":3}'
  wrk.headers["content-type"] = "application/json"
end
local key = os.getenv("BENCH_API_KEY")
if key and key ~= "" then wrk.headers["x-api-key"] = key end
local token = os.getenv("BENCH_TOKEN")
if token and token ~= "" then wrk.headers["x-token"] = token end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests":%d,"duration_us":%d,"errors":%d,"non2xx":%d,"p50_us":%d,"p99_us":%d}\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(99)))
end
