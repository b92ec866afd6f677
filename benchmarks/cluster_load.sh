#!/usr/bin/env bash
# The load test against HAProxy in front of N servers sharing PostgreSQL and Redis (docs/results/cluster.md):
#   benchmarks/cluster_load.sh SERVERS PLAYERS [GAME] [SECONDS] [INTERVAL]
# (INTERVAL: seconds between one person's plays, 2 by default; a long one holds many players connected at a rate
# the servers can answer.)
# Starts a private Redis and a fresh PostgreSQL database, `taash cluster`, waits for the proxy, runs
# `taash web loadtest --json` and stops everything. Needs scripts/ensure-postgres, ensure-redis, ensure-haproxy.
# From the environment, for a machine without this checkout's .venv (benchmarks/device_cluster.sh):
#   TAASH                the taash command (".venv/bin/taash" unless told; words split, e.g. "python3 -m taash.cli.main")
#   PYTHON               the Python that has taash, to merge the figures of several load tests (".venv/bin/python")
#   TAASH_POSTGRES_URL   a PostgreSQL URL of a role that may create databases, instead of scripts/ensure-postgres
#   LOADTESTS=K          K load-test processes side by side, each with its share of the people (1 unless told: one
#                        Python process of simulated people can be the bottleneck before 4 to 8 servers are); their
#                        figures merged by benchmarks/merge_loadtests.py (plays added up; p50/p99 of all the plays)
#   CLUSTER_LOG          where `taash cluster`'s output goes (/tmp/cluster_load_PID.log unless told)
#   CLUSTER_KEEP=DIR     copy the servers' and the proxy's logs into DIR before they are stopped (else they go)
#   LOADTEST_ARGS        more options of `taash web loadtest` (e.g. "--stay-relayed": every websocket stays where
#                        the proxy sent it, through the relay, instead of connecting again to its table's owner)
set -euo pipefail
cd "$(dirname "$0")/.."
servers="${1:?servers}" players="${2:?players}" game="${3:-seep}" seconds="${4:-30}" interval="${5:-2}"
read -r -a taash <<<"${TAASH:-.venv/bin/taash}"
loadtests="${LOADTESTS:-1}"
[[ "$loadtests" =~ ^[1-9][0-9]*$ ]] || { echo "cluster_load.sh: LOADTESTS must be a whole number from 1" >&2; exit 2; }
log="${CLUSTER_LOG:-/tmp/cluster_load_$$.log}"
pg="${TAASH_POSTGRES_URL:-$(scripts/ensure-postgres)}"  # postgresql+psycopg://USER:PASSWORD@HOST/DB
[ -n "$pg" ] || { echo "cluster_load.sh: no PostgreSQL to use (see scripts/ensure-postgres)" >&2; exit 1; }
admin="${pg/postgresql+psycopg/postgresql}"
db="taash_cluster_bench_$$"
psql -q "$admin" -c "CREATE DATABASE $db" >/dev/null
redis_port=$((6400 + $$ % 500)) proxy_port=$((8100 + $$ % 500))
redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no >/dev/null &
redis=$!
"${taash[@]}" cluster --servers "$servers" --port "$proxy_port" \
    --database-url "${pg%/*}/$db" --redis-url "redis://127.0.0.1:$redis_port/0" \
    --serve-args "--creations 10000000 --max-connections-per-address 100000 --max-connections 100000" \
    >"$log" 2>&1 &
cluster=$!
cleanup() {  # SIGTERM: a background job of a script ignores SIGINT, so `taash cluster` never heard Ctrl-C's
    servers_logs=$(grep -o "logs in [^ )]*" "$log" | head -1 | cut -d' ' -f3)
    if [ -n "${CLUSTER_KEEP:-}" ] && [ -d "$servers_logs" ]; then  # before `taash cluster` deletes them
        mkdir -p "$CLUSTER_KEEP" && cp -r "$servers_logs"/. "$CLUSTER_KEEP"/
    fi
    kill -TERM "$cluster" 2>/dev/null; wait "$cluster" 2>/dev/null || true
    kill "$redis" 2>/dev/null; wait "$redis" 2>/dev/null || true
    psql -q "$admin" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 180); do  # every server answers, then the proxy: `taash cluster` says so in one line
    grep -q "servers behind HAProxy" "$log" && break
    kill -0 "$cluster" 2>/dev/null || { cat "$log" >&2; exit 1; }
    sleep 1
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
loadtest() {  # PLAYERS SEED [more options]
    "${taash[@]}" web loadtest --url "http://127.0.0.1:$proxy_port" --game "$game" --players "$1" \
        --duration "$seconds" --interval "$interval" --seed "$2" --json ${LOADTEST_ARGS:-} "${@:3}"
}
if [ "$loadtests" = 1 ]; then
    loadtest "$players" 0
else  # K processes, the k-th with players*k/K - players*(k-1)/K people and seed k
    parts="$(mktemp -d /tmp/cluster_load_parts_XXXXXX)"
    pids=()
    for k in $(seq "$loadtests"); do
        loadtest $((players * k / loadtests - players * (k - 1) / loadtests)) "$k" --latencies "$parts/$k.json" \
            >"$parts/$k.out" 2>"$parts/$k.err" &
        pids+=($!)
    done
    failed=0
    for k in $(seq "$loadtests"); do
        wait "${pids[k - 1]}" || { failed=1; echo "load test $k of $loadtests failed:" >&2; tail -5 "$parts/$k.err" >&2; }
    done
    if [ "$failed" = 0 ]; then "${PYTHON:-.venv/bin/python}" benchmarks/merge_loadtests.py "$parts"/*.json || failed=1; fi
    rm -rf "$parts"
    [ "$failed" = 0 ]
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
