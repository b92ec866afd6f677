#!/usr/bin/env bash
# Makes .devbundle/ (git-ignored), what benchmarks/device_cluster.sh needs on a bare many-core x86-64 machine with
# Python 3.12 and no network (docs/results/cluster.md):
#   .devbundle/wheels/  the Python packages that `taash cluster`, `taash serve` and `taash web loadtest` import, as
#                       CPython 3.12 manylinux x86-64 wheels at this checkout's .venv versions (the list below was
#                       read from sys.modules of a real cluster load test; packages that machine's image already
#                       has are left out: IMAGE below)
#   .devbundle/debs/    Debian bookworm's PostgreSQL 15, Redis and HAProxy with every shared library they load
#                       except glibc's, to unpack (dpkg -x) into a folder of their own; PostgreSQL's packages
#                       trimmed of their JIT bitcode, translations, manuals and the client programs no script runs
# Left out to keep the bundle small: Babel (10 MiB; the servers read a message catalogue only for a person who
# asks for Hindi or Punjabi, which the load test never does) and PostgreSQL's JIT (jit=off there).
#   benchmarks/device_bundle.sh        (root, Debian bookworm with apt-get; pip reaching PyPI; make venv first)
set -euo pipefail
cd "$(dirname "$0")/.."
bundle=.devbundle
[ -x .venv/bin/python ] || { echo "device_bundle.sh: no .venv here (make venv first): its versions are the ones taken" >&2; exit 1; }
WHEELS=(alembic annotated-doc annotated-types anti-profanity anyascii anyio argon2-cffi argon2-cffi-bindings certifi
        cffi click confusables fastapi greenlet h11 httpcore httptools httpx idna itsdangerous mako opentelemetry-api
        orjson psycopg psycopg-binary pycparser pydantic pydantic-core redis setuptools sqlalchemy starlette typer
        typing-extensions typing-inspection uvicorn websockets)
# What the machine's image has (docs of the device: "Python packages already there"), and what setuptools carries
# vendored: the wheels' own requirements may be met by these.
IMAGE=(uvloop rich pygments markdown-it-py mdurl shellingham markupsafe packaging zipp autocommand jaraco-context
       jaraco-functools more-itertools)
DEBS=(postgresql-15 postgresql-client-15 redis-server redis-tools haproxy tzdata
      libatomic1 libaudit1 libcap-ng0 libcap2 libcom-err2 libcrypt1 libffi8 libgcc-s1 libgcrypt20 libgmp10 libgnutls30
      libgpg-error0 libgssapi-krb5-2 libhogweed6 libicu72 libidn2-0 libjemalloc2 libk5crypto3 libkeyutils1 libkrb5-3
      libkrb5support0 libldap-2.5-0 liblua5.3-0 liblz4-1 liblzf1 liblzma5 libnettle8 libopentracing-c-wrapper0
      libopentracing1 libp11-kit0 libpam0g libpcre2-8-0 libpq5 libreadline8 libsasl2-2 libssl3 libstdc++6 libsystemd0
      libtasn1-6 libtinfo6 libunistring2 libxml2 libzstd1 zlib1g)
rm -rf "$bundle"
mkdir -p "$bundle/wheels" "$bundle/debs"
pins=()
for name in "${WHEELS[@]}"; do
    pins+=("$name==$(.venv/bin/python -c 'import sys, importlib.metadata as m; print(m.version(sys.argv[1]))' "$name")")
done
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp --abi cp312 \
    --abi abi3 --abi none --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
    --platform manylinux_2_24_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
    --platform manylinux_2_5_x86_64 --platform manylinux1_x86_64 --platform any -d "$bundle/wheels" "${pins[@]}"
# Every wheel's requirements (for CPython 3.12 on Linux, no extras) are in the bundle or on the machine already
.venv/bin/python - "$bundle/wheels" "${IMAGE[@]}" <<'EOF'
import sys, zipfile
from pathlib import Path
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name, parse_wheel_filename
wheels = sorted(Path(sys.argv[1]).glob("*.whl"))
have = {canonicalize_name(parse_wheel_filename(w.name)[0]) for w in wheels} | {canonicalize_name(n) for n in sys.argv[2:]}
env = {"python_version": "3.12", "python_full_version": "3.12.3", "sys_platform": "linux", "platform_system": "Linux",
       "implementation_name": "cpython", "platform_machine": "x86_64", "extra": ""}
missing = set()
for w in wheels:
    with zipfile.ZipFile(w) as z:
        meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        for line in z.read(meta).decode().splitlines():
            if line.startswith("Requires-Dist:"):
                r = Requirement(line.split(":", 1)[1].strip())
                if (r.marker is None or r.marker.evaluate(env)) and canonicalize_name(r.name) not in have:
                    missing.add(f"{r.name} (for {w.name.split('-')[0]})")
if missing:
    sys.exit("device_bundle.sh: wheels missing: " + ", ".join(sorted(missing)))
EOF
apt-get update -qq
(cd "$bundle/debs" && apt-get download -q "${DEBS[@]}" 2>&1 | grep -v "^W: Download is performed unsandboxed" || true)
[ "$(ls "$bundle"/debs/*.deb | wc -l)" = "${#DEBS[@]}" ] || { echo "device_bundle.sh: a package did not download" >&2; exit 1; }

trim() {  # PACKAGE KEEP-PROGRAMS...: rebuild PACKAGE's .deb without what no script of the bundle uses
    local package="$1" deb tree
    shift
    deb="$(ls "$bundle/debs/${package}"_*.deb)"
    tree="$(mktemp -d)"
    dpkg-deb -R "$deb" "$tree/p"
    rm -rf "$tree"/p/usr/lib/postgresql/15/lib/bitcode "$tree"/p/usr/share/locale "$tree"/p/usr/share/man \
        "$tree"/p/usr/share/doc "$tree"/p/usr/share/postgresql/15/man "$tree"/p/DEBIAN/md5sums
    if [ $# -gt 0 ]; then
        for program in "$tree"/p/usr/lib/postgresql/15/bin/*; do
            [[ " $* " == *" $(basename "$program") "* ]] || rm -f "$program"
        done
    fi
    rm "$deb"
    dpkg-deb -Zxz -b "$tree/p" "${deb%_amd64.deb}+trimmed_amd64.deb" >/dev/null
    rm -rf "$tree"
}
trim postgresql-15
trim postgresql-client-15 psql pg_isready createdb dropdb
{
    echo "Made by benchmarks/device_bundle.sh on $(date -u '+%Y-%m-%d %H:%M UTC') from $(git rev-parse --short HEAD)."
    echo "wheels (CPython 3.12, manylinux x86-64):"
    ls "$bundle/wheels" | sed 's/^/  /'
    echo "Debian bookworm packages (PostgreSQL's trimmed: no JIT bitcode, translations or manuals):"
    ls "$bundle/debs" | sed 's/^/  /'
} >"$bundle/CONTENTS.txt"
for part in wheels debs .; do du -sh "$bundle/$part"; done
