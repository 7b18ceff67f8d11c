-- wrk script of bench/serve_vs_nginx.sh: each request is one of the targets in $BENCH_TARGETS
-- (one per line), taken at random, with the Authorization header of $BENCH_KEY when set.
local targets = {}
local file = io.open(os.getenv("BENCH_TARGETS"), "r")
for line in file:lines() do
  targets[#targets + 1] = line
end
file:close()
local key = os.getenv("BENCH_KEY")
local headers = {}
if key and key ~= "" then
  headers["Authorization"] = "Bearer " .. key
end
-- $BENCH_GZIP set: accept gzip (P1z, D17).
local gzip = os.getenv("BENCH_GZIP")
if gzip and gzip ~= "" then
  headers["Accept-Encoding"] = "gzip"
end

function setup(thread)
  thread:set("id", math.random(1, 1000000))
end

function init(args)
  math.randomseed(id)
end

function request()
  return wrk.format("GET", targets[math.random(1, #targets)], headers)
end
