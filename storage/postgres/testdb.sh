#!/bin/sh
# testdb.sh starts a throwaway PostgreSQL cluster for the storage/postgres tests and
# prints its URL on stdout, for example:
#
#	VERILAND_TEST_POSTGRES_URL=$(storage/postgres/testdb.sh)
#	go test ./storage/postgres
#
# It installs PostgreSQL with apt-get when no server binaries are found (as root,
# non-interactive), initialises a cluster in a fresh directory under /tmp, starts it
# on a free local port (127.0.0.1 and a Unix socket in that directory), creates the
# database "veriland" and prints postgres://postgres@127.0.0.1:PORT/veriland. The
# cluster trusts local connections and runs with fsync off: it is for tests only.
# With -durable it keeps PostgreSQL's durable defaults (fsync, synchronous_commit and
# full_page_writes on), for benchmarks whose figures must include the flush:
#
#	VERILAND_TEST_POSTGRES_URL=$(storage/postgres/testdb.sh -durable) \
#	  go test -run - -bench ConsentApprove ./httpserver
# Stop it with the command it prints on stderr (or let the machine go away).
#
# Every step is bounded by a timeout; on any failure it prints why on stderr and exits
# non-zero. Everything but the URL goes to stderr.
set -eu

log() { echo "testdb.sh: $*" >&2; }
DIR=
STARTED=
die() {
	log "error: $*"
	if [ -n "$STARTED" ]; then # leave no server behind
		as_pg timeout 30 "$BIN/pg_ctl" -D "$DIR/data" -m immediate -w -t 20 stop >/dev/null 2>&1 || true
	fi
	exit 1
}

command -v timeout >/dev/null 2>&1 || die "the timeout command (coreutils) is missing"

DURABILITY='fsync = off
synchronous_commit = off
full_page_writes = off'
case "${1:-}" in
"") ;;
-durable) DURABILITY='fsync = on
synchronous_commit = on
full_page_writes = on' ;;
*) die "usage: testdb.sh [-durable]" ;;
esac

pgbin() {
	# The newest installed server version.
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5 -n -r); do
		if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then
			echo "$d"
			return 0
		fi
	done
	for d in $(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent/x)"); do
		if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then
			echo "$d"
			return 0
		fi
	done
	return 1
}

BIN=$(pgbin) || {
	[ "$(id -u)" = 0 ] || die "PostgreSQL is not installed and installing it needs root"
	command -v apt-get >/dev/null 2>&1 || die "PostgreSQL is not installed and apt-get is missing"
	log "installing postgresql with apt-get"
	export DEBIAN_FRONTEND=noninteractive
	timeout 300 apt-get update -q >&2 || die "apt-get update failed or timed out"
	timeout 600 apt-get install -y -q --no-install-recommends postgresql >&2 ||
		die "apt-get install postgresql failed or timed out"
	BIN=$(pgbin) || die "no initdb/pg_ctl found after installing postgresql"
}

# Run a server command as a user that PostgreSQL accepts (it refuses root).
if [ "$(id -u)" = 0 ]; then
	id postgres >/dev/null 2>&1 || die "running as root, but there is no postgres user to run the server as"
	command -v runuser >/dev/null 2>&1 || die "running as root, but runuser (util-linux) is missing"
	as_pg() { runuser -u postgres -- "$@"; }
else
	as_pg() { "$@"; }
fi

DIR=$(mktemp -d /tmp/veriland-pg.XXXXXX) || die "mktemp failed"
DATA=$DIR/data
if [ "$(id -u)" = 0 ]; then
	chown postgres "$DIR" || die "chown $DIR failed"
fi

log "initialising a cluster in $DATA"
as_pg timeout 120 "$BIN/initdb" -D "$DATA" -U postgres -A trust -E UTF8 --locale=C --no-sync >"$DIR/initdb.log" 2>&1 ||
	die "initdb failed or timed out; see $DIR/initdb.log: $(tail -n 5 "$DIR/initdb.log" 2>/dev/null)"

cat >>"$DATA/postgresql.conf" <<CONF || die "cannot write $DATA/postgresql.conf"
# testdb.sh: a throwaway test cluster.
listen_addresses = '127.0.0.1'
unix_socket_directories = '$DIR'
max_connections = 300
$DURABILITY
deadlock_timeout = 100ms
include_if_exists = 'port.conf'
CONF

# Try random ports until one is free: the server itself tells whether it could bind.
i=0
while [ $i -lt 10 ]; do
	i=$((i + 1))
	# A pseudo-random port in 20000..59999, different for each try and each run.
	PORT=$(( (($$ * 7919) + $(date +%s) + i * 4099) % 40000 + 20000 ))
	echo "port = $PORT" >"$DATA/port.conf" || die "cannot write $DATA/port.conf"
	if as_pg timeout 60 "$BIN/pg_ctl" -D "$DATA" -l "$DIR/server.log" -w -t 30 start >&2; then
		STARTED=1
		break
	fi
	as_pg timeout 30 "$BIN/pg_ctl" -D "$DATA" -m immediate -w -t 20 stop >/dev/null 2>&1 || true
	log "could not start on port $PORT, trying another"
done
[ -n "$STARTED" ] || die "the server did not start; see $DIR/server.log: $(tail -n 5 "$DIR/server.log" 2>/dev/null)"

PSQL=$BIN/psql
[ -x "$PSQL" ] || PSQL=$(command -v psql) || die "psql not found"
timeout 30 "$PSQL" -X -q -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 \
	-c 'CREATE DATABASE veriland' >&2 || die "CREATE DATABASE failed or timed out"

log "started; stop it with: $(if [ "$(id -u)" = 0 ]; then echo 'runuser -u postgres -- '; fi)$BIN/pg_ctl -D $DATA -m fast stop"
echo "postgres://postgres@127.0.0.1:$PORT/veriland?sslmode=disable"
