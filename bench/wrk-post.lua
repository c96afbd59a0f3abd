-- wrk script for bench/api-load.sh: queue a small copy run with a bearer token
-- (WARPLAB_TOKEN). wrk itself counts the answers that are not 2xx.
local token = os.getenv("WARPLAB_TOKEN") or ""
wrk.method = "POST"
wrk.body = '{"experiment":"copy","params":{"n":1024},"repeat":1,"label":"load test"}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. token
