#!/usr/bin/env bash
# The cluster load test (benchmarks/cluster_load.sh: HAProxy in front of N `taash serve` processes sharing
# PostgreSQL and Redis) for several N on a bare many-core x86-64 machine that has Python 3.12 but none of PostgreSQL,
# Redis, HAProxy or taash's dependencies, and no network. Everything comes from .devbundle/ (made here by
# benchmarks/device_bundle.sh): the Debian packages are unpacked into a folder of their own (never into /) and run
# through small wrappers that give only them its libraries; the wheels go into a folder on PYTHONPATH beside src/.
#   benchmarks/device_cluster.sh [-P PER_SERVER | -p PEOPLE] [-g GAME] [-s SECONDS] [-i INTERVAL] [-k LOADTESTS]
#                                [-t LIMIT] [N...]
#     PER_SERVER  simulated people for each server (default 1000: N servers, N x 1000 people), or PEOPLE for every N;
#               split over LOADTESTS load-test processes (default 4; at most 4000 people each)
#     GAME      seep (default) or rummy; SECONDS of play measured in each run (default 30); INTERVAL between one
#               person's plays (default 2)
#     LIMIT     seconds the whole script may take, setup included (default 420): a run that would not end in time is
#               skipped and said so
#     N...      the numbers of servers, one run each, in this order (default 1 2 4 8); a run is stopped after
#               SECONDS + 150 s
# From the run's repository root. Writes $OUT/cluster_device.txt (the machine, the setup, each run's JSON figures,
# load averages and a CPU snapshot, a summary; the logs' tails when something fails) and $OUT/cluster_device.jsonl
# (one line of figures per run); $OUT is /tmp/device_cluster_out unless set. DEVICE_WORK (/tmp unless set) holds
# the unpacked packages, the wheels' install, PostgreSQL's data and the logs; PYTHON (python3) is the interpreter;
# PGPORT_BENCH (55432) is the private PostgreSQL's port.
set -uo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
started=$(date +%s)
per_server=1000 people="" game=seep seconds=30 interval=2 loadtests=4 limit=420
while getopts "P:p:g:s:i:k:t:" option; do
    case "$option" in
        P) per_server="$OPTARG" people="" ;; p) people="$OPTARG" per_server="" ;; g) game="$OPTARG" ;;
        s) seconds="$OPTARG" ;; i) interval="$OPTARG" ;; k) loadtests="$OPTARG" ;; t) limit="$OPTARG" ;;
        *) echo "usage: benchmarks/device_cluster.sh [-P PER_SERVER | -p PEOPLE] [-g GAME] [-s SECONDS]" \
                "[-i INTERVAL] [-k LOADTESTS] [-t LIMIT] [N...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1 2 4 8)
for number in $people $per_server "$seconds" "$loadtests" "$limit" "${sizes[@]}"; do
    [[ "$number" =~ ^[1-9][0-9]*$ ]] || { echo "device_cluster.sh: $number is not a whole number from 1" >&2; exit 2; }
done
deadline=$((started + limit))
out="${OUT:-/tmp/device_cluster_out}"
work="${DEVICE_WORK:-/tmp}"
root="$work/root" site="$work/site" pgdata="$work/pgdata" logs="$work/device_logs"
py="${PYTHON:-python3}"
pgport="${PGPORT_BENCH:-55432}"
report="$out/cluster_device.txt"
rm -rf "$logs" && mkdir -p "$out" "$logs"
: >"$report"
: >"$out/cluster_device.jsonl"

say() { echo "$*" | tee -a "$report"; }
tail_of() {  # FILE LINES: a log's last lines into the report
    [ -f "$1" ] && { say "--- last $2 lines of $(basename "$1")"; tail -n "$2" "$1" | tee -a "$report"; }
}
give_up() { say "device_cluster.sh: $*"; exit 1; }
elapsed() { echo $(($(date +%s) - started)); }

say "== the machine ($(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(git rev-parse --short HEAD 2>/dev/null || echo 'no git'))"
say "nproc: $(nproc); $(grep -m1 'model name' /proc/cpuinfo | sed 's/\s\+/ /g')"
say "memory: $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo); kernel $(uname -r)"
say "python: $($py -c 'import sys; print(sys.version.split()[0], sys.executable)' 2>&1)"
say "C compiler: $(command -v gcc || command -v cc || echo none)"
say "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
say "runs: N = ${sizes[*]}; ${people:-$per_server per server} people at $game, $seconds s of play each, interval" \
    "$interval s, $loadtests load-test processes; limit $limit s"

# --- PostgreSQL, Redis and HAProxy from the Debian packages, in $root, each run through a wrapper that gives it the
# packages' libraries (LD_LIBRARY_PATH for them alone: Python and the rest keep the machine's own)
ls .devbundle/debs/*.deb >/dev/null 2>&1 || give_up "no .devbundle/debs here (benchmarks/device_bundle.sh makes it)"
unpack() {  # DEB: its files into $root, by dpkg -x, or where there is no dpkg by Python (a .deb is an ar archive)
    if command -v dpkg >/dev/null; then dpkg -x "$1" "$root"; return; fi
    "$py" - "$1" "$root" <<'EOF'
import io, sys, tarfile
data = open(sys.argv[1], "rb").read()
at = 8  # past "!<arch>\n": then members, each a 60-byte header (name, ..., size at 48:58) and its data, 2-aligned
while at < len(data):
    name, size = data[at:at + 16].decode().strip().rstrip("/"), int(data[at + 48:at + 58])
    if name.startswith("data.tar"):
        tarfile.open(fileobj=io.BytesIO(data[at + 60:at + 60 + size])).extractall(sys.argv[2], filter="tar")
    at += 60 + size + size % 2
EOF
}
rm -rf "$root" && mkdir -p "$root/wrap"
for deb in .devbundle/debs/*.deb; do unpack "$deb" || give_up "could not unpack $deb"; done
say "unpacked $(ls .devbundle/debs/*.deb | wc -l) packages into $root ($(elapsed) s in)"
libs="$root/usr/lib/x86_64-linux-gnu:$root/lib/x86_64-linux-gnu"
wrap() {  # NAME PATH: $root/wrap/NAME runs PATH with the packages' libraries
    printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' "$libs" "$2" >"$root/wrap/$1"
    chmod +x "$root/wrap/$1"
}
pgbin="$root/usr/lib/postgresql/15/bin"
for program in initdb pg_ctl postgres psql pg_isready createdb; do wrap "$program" "$pgbin/$program"; done
wrap redis-server "$root/usr/bin/redis-server"  # a link to redis-check-rdb, which acts on the name it is run by
wrap redis-cli "$root/usr/bin/redis-cli"
wrap haproxy "$root/usr/sbin/haproxy"
export PATH="$root/wrap:$PATH"
for binary in "$pgbin/postgres" "$pgbin/psql" "$root/usr/bin/redis-check-rdb" "$root/usr/sbin/haproxy"; do
    missing=$(LD_LIBRARY_PATH="$libs" ldd "$binary" | grep "not found")
    [ -z "$missing" ] || say "$(basename "$binary") is missing libraries: $missing"
done
postgres -V >/dev/null 2>&1 || give_up "cannot run $pgbin/postgres: $(postgres -V 2>&1 | head -1) (a folder mounted \
noexec? DEVICE_WORK=another folder)"
say "unpacked: $(postgres -V), $(redis-server --version | cut -d' ' -f1-3), $(haproxy -v | head -1)"
# PostgreSQL reads time zones from /usr/share/zoneinfo, a path built into it: give a machine without them the
# bundle's tzdata there (the one thing this script writes outside $work and $out)
if [ ! -e /usr/share/zoneinfo/UTC ]; then
    mkdir -p /usr/share/zoneinfo && cp -a "$root/usr/share/zoneinfo/." /usr/share/zoneinfo/ \
        && say "no /usr/share/zoneinfo here: copied the bundle's tzdata there"
fi

# --- PostgreSQL: a fresh cluster, trusting loopback, as an unprivileged user (initdb and postgres refuse root)
as_postgres=()
if [ "$(id -u)" = 0 ]; then
    as_postgres=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups)
    command -v setpriv >/dev/null || as_postgres=(runuser -u nobody --)
fi
rm -rf "$pgdata" && mkdir -p "$pgdata" "$work/pgsocket" && chmod 700 "$pgdata"
[ "$(id -u)" = 0 ] && chown nobody "$pgdata" "$work/pgsocket"
"${as_postgres[@]}" initdb -D "$pgdata" -U taash -A trust -E UTF8 --no-locale --no-sync >"$logs/initdb.log" 2>&1 \
    || { tail_of "$logs/initdb.log" 30; give_up "initdb failed"; }
"${as_postgres[@]}" pg_ctl -D "$pgdata" -l "$pgdata/postgresql.log" -w -t 60 start -o "-p $pgport -h 127.0.0.1 \
    -k $work/pgsocket -c max_connections=1000 -c shared_buffers=2GB -c jit=off" >/dev/null \
    || { tail_of "$pgdata/postgresql.log" 30; give_up "PostgreSQL did not start"; }
stop_postgres() { "${as_postgres[@]}" pg_ctl -D "$pgdata" -m fast stop >/dev/null 2>&1; }
trap stop_postgres EXIT
export TAASH_POSTGRES_URL="postgresql+psycopg://taash@127.0.0.1:$pgport/postgres"
say "PostgreSQL on 127.0.0.1:$pgport (max_connections 1000, shared_buffers 2GB, jit off; otherwise its" \
    "defaults) ($(elapsed) s in)"

# --- taash's Python dependencies from the wheels, and taash from src/ with its compiled cores built in place
rm -rf "$site"
"$py" -m pip install -q --no-index --no-deps --no-compile --target "$site" .devbundle/wheels/*.whl \
    >"$logs/pip.log" 2>&1 || { tail_of "$logs/pip.log" 30; give_up "the wheels did not install (not CPython 3.12?)"; }
"$py" -m compileall -q -j 0 "$site" "$repo/src" >>"$logs/pip.log" 2>&1  # on every core, not in each server
outer_path="${PYTHONPATH:-}"
export PYTHONPATH="$site:$repo/src${outer_path:+:$outer_path}"
"$py" -c 'import taash.cli.main, taash.web.app, fastapi, uvicorn, sqlalchemy, psycopg, redis, httptools, uvloop, orjson
print("imports: fastapi", fastapi.__version__, "uvicorn", uvicorn.__version__, "sqlalchemy", sqlalchemy.__version__,
      "psycopg", psycopg.__version__, psycopg.pq.__impl__, "redis", redis.__version__, "uvloop", uvloop.__version__)' \
    >"$logs/imports.log" 2>&1 || { tail_of "$logs/imports.log" 30; give_up "taash does not import"; }
say "$(cat "$logs/imports.log") ($(elapsed) s in)"
compiled() {  # build the cores in place with the setuptools on PYTHONPATH $1; both cores load
    PYTHONPATH="$1" "$py" setup.py -q build_ext --inplace -j 2 >>"$logs/build.log" 2>&1 \
        && "$py" -c 'from taash.seep.core import CORE as s; from taash.rummy.core import CORE as r
assert s == r == "compiled", (s, r)' >>"$logs/build.log" 2>&1
}
# the machine's own setuptools first; the bundle's where that one is too old for pyproject.toml
if compiled "$repo/src${outer_path:+:$outer_path}" || compiled "$PYTHONPATH"; then
    say "compiled cores: $(grep 'taash: built' "$logs/build.log" | tail -1) ($(elapsed) s in)"
else
    export TAASH_PURE=1
    tail_of "$logs/build.log" 15
    say "THE COMPILED CORES DID NOT BUILD: every server runs the PURE-PYTHON engines (TAASH_PURE=1); these figures are"
    say "not comparable with the compiled ones"
fi
export TAASH="$py -m taash.cli.main" PYTHON="$py" LOADTESTS="$loadtests"
ulimit -n 1048576 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
say "open files: $(ulimit -n); setup took $(elapsed) s"

# --- one cluster_load.sh run for each N
cpu_snapshot() {  # after DELAY seconds: which processes use the CPU (two samples of top, the second 3 s long)
    sleep "$1"
    command -v top >/dev/null || return 0
    top -b -c -n 2 -d 3 -w 180 2>/dev/null | awk '/^top -/ {n++} n == 2' | sed -n '1,5p;7,32p'
}
failures=0
for n in "${sizes[@]}"; do
    left=$((deadline - $(date +%s)))
    if [ "$left" -lt $((seconds + 45)) ]; then
        say "== N=$n: skipped, $left s left of the limit"
        continue
    fi
    people_n="${people:-$((per_server * n))}"
    if [ $((people_n / loadtests)) -gt 4000 ]; then
        say "== N=$n: skipped, $people_n people over $loadtests load tests is more than 4000 each (-k more)"
        continue
    fi
    say "== N=$n servers, $people_n people at $game, $seconds s, $loadtests load tests ($(elapsed) s in)"
    cpu_snapshot $((seconds / 2 + 10)) >"$logs/cpu_$n.txt" &
    snapshot=$!
    begun=$(date +%s)
    cap=$((seconds + 150 < left - 5 ? seconds + 150 : left - 5))  # a stuck run leaves time for the others
    CLUSTER_LOG="$logs/cluster_$n.log" CLUSTER_KEEP="$logs/servers_$n" \
        timeout -k 10 "$cap" benchmarks/cluster_load.sh "$n" "$people_n" "$game" \
        "$seconds" "$interval" >"$logs/run_$n.json" 2>"$logs/run_$n.err"
    code=$?
    kill "$snapshot" 2>/dev/null; wait "$snapshot" 2>/dev/null
    grep "^load average" "$logs/run_$n.err" | tee -a "$report"
    warned=$(cat "$logs/servers_$n"/server*.log 2>/dev/null | grep -v " INFO \|^INFO\|Seep and Rummy at" \
        | cut -c1-200 | sort | uniq -c | sort -rn | head -12)
    say "the servers' warnings and errors (count, line): ${warned:-none}"
    if [ "$code" = 0 ] && [ -s "$logs/run_$n.json" ]; then
        say "$(cat "$logs/run_$n.json")"
        "$py" -c 'import json, sys; f = json.loads(sys.argv[1]); print(json.dumps({"servers": int(sys.argv[2]), **f}))' \
            "$(cat "$logs/run_$n.json")" "$n" >>"$out/cluster_device.jsonl"
    else
        failures=$((failures + 1))
        say "N=$n FAILED (exit $code$([ "$code" = 124 ] && echo ": stopped after $cap s"))"
        tail_of "$logs/run_$n.err" 40
        tail_of "$logs/cluster_$n.log" 40
        tail_of "$pgdata/postgresql.log" 15
    fi
    say "(took $(($(date +%s) - begun)) s)"
    [ -s "$logs/cpu_$n.txt" ] && { say "--- CPU in the middle of the run (top)"; tee -a "$report" <"$logs/cpu_$n.txt"; }
done

say "== summary ($(elapsed) s in all): servers, people, plays a second, p50 ms, p99 ms, errors, disconnects"
"$py" - "$out/cluster_device.jsonl" <<'EOF' | tee -a "$report"
import json, sys
for f in sorted((json.loads(line) for line in open(sys.argv[1])), key=lambda f: f["servers"]):
    print(f"N={f['servers']}: {f['players']} people, {f['plays_per_sec']} plays/s (summed over the load tests: "
          f"{f.get('plays_per_sec_summed', f['plays_per_sec'])}), p50 {f['p50_ms']} ms, p99 {f['p99_ms']} ms, "
          f"errors {f['errors'] or 'none'}, disconnects {f['disconnects']}")
EOF
[ "$failures" = 0 ] || { say "$failures of ${#sizes[@]} runs failed"; exit 1; }
