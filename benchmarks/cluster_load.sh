#!/usr/bin/env bash
# The load test against HAProxy in front of N servers sharing PostgreSQL and Redis (docs/results/cluster.md):
#   benchmarks/cluster_load.sh SERVERS PLAYERS [GAME] [SECONDS] [INTERVAL]
# (INTERVAL: seconds between one person's plays, 2 by default; a long one holds many players connected at a rate
# the servers can answer.)
# Starts a private Redis and a fresh PostgreSQL database, `taash cluster`, waits for the proxy, runs
# `taash web loadtest --json` and stops everything. Needs scripts/ensure-postgres, ensure-redis, ensure-haproxy.
set -euo pipefail
cd "$(dirname "$0")/.."
servers="${1:?servers}" players="${2:?players}" game="${3:-seep}" seconds="${4:-30}" interval="${5:-2}"
pg="$(scripts/ensure-postgres)"                       # postgresql+psycopg://USER:PASSWORD@HOST/DB
[ -n "$pg" ] || { echo "cluster_load.sh: no PostgreSQL to use (see scripts/ensure-postgres)" >&2; exit 1; }
admin="${pg/postgresql+psycopg/postgresql}"
db="taash_cluster_bench_$$"
psql -q "$admin" -c "CREATE DATABASE $db" >/dev/null
redis_port=$((6400 + $$ % 500)) proxy_port=$((8100 + $$ % 500))
redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no >/dev/null &
redis=$!
.venv/bin/taash cluster --servers "$servers" --port "$proxy_port" \
    --database-url "${pg%/*}/$db" --redis-url "redis://127.0.0.1:$redis_port/0" \
    --serve-args "--creations 10000000 --max-connections-per-address 100000 --max-connections 100000" \
    >"/tmp/cluster_load_$$.log" 2>&1 &
cluster=$!
cleanup() {  # SIGTERM: a background job of a script ignores SIGINT, so `taash cluster` never heard Ctrl-C's
    kill -TERM "$cluster" 2>/dev/null; wait "$cluster" 2>/dev/null || true
    kill "$redis" 2>/dev/null; wait "$redis" 2>/dev/null || true
    psql -q "$admin" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 180); do  # every server answers, then the proxy: `taash cluster` says so in one line
    grep -q "servers behind HAProxy" "/tmp/cluster_load_$$.log" && break
    kill -0 "$cluster" 2>/dev/null || { cat "/tmp/cluster_load_$$.log" >&2; exit 1; }
    sleep 1
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
.venv/bin/taash web loadtest --url "http://127.0.0.1:$proxy_port" --game "$game" --players "$players" \
    --duration "$seconds" --interval "$interval" --json
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
