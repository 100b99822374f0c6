#!/usr/bin/env bash
# A throwaway Ethereum dev chain for the LandTitle tests (SPEC S14): builds geth at
# go.mod's go-ethereum version (once; the binary is cached), starts `geth --dev` on a
# free loopback port with its own temporary data directory, creates and funds a fresh
# registry key, and prints shell `export` lines for the tests:
#
#   eval "$(scripts/devchain.sh)"       # start; stdout is only the export lines
#   scripts/devchain.sh stop            # kill $VERILAND_TEST_ETH_PID, remove its directory
#   scripts/devchain.sh build           # only build (or find) geth, print its path: .ci/run
#                                       # starts it early, in the background
#
# Exports:
#   VERILAND_TEST_ETH_RPC       http://127.0.0.1:<port> (eth, net, web3, txpool)
#   VERILAND_TEST_ETH_KEY       file with the registry account's secp256k1 key (hex, mode 0600),
#                               funded with 1000 ETH from the dev account
#   VERILAND_TEST_ETH_ADDRESS   that account's address
#   VERILAND_TEST_ETH_CHAIN_ID  the node's chain id (1337 for geth --dev)
#   VERILAND_TEST_ETH_PID       the geth process (kill it, or `scripts/devchain.sh stop`)
#   VERILAND_TEST_ETH_DIR       the temporary directory (datadir, key, geth.log)
#   VERILAND_TEST_GETH          the geth binary (examples/server's crash test starts its own node)
#
# geth --dev with period 0 seals a block as soon as a transaction arrives. Its dev
# account (eth_accounts[0], go-ethereum's fixed developer key) is prefunded and unlocked,
# so eth_sendTransaction from it works; the script checks that on the node it started.
#
# Settings (environment):
#   VERILAND_GETH_CACHE     where the built geth is kept (default ~/.cache/veriland/geth-<version>)
#   VERILAND_TEST_GETH      a geth binary to use when it reports the same version
#   VERILAND_GETH_BUILD_TIMEOUT (s, default 900), VERILAND_GETH_START_TIMEOUT (s, default 60)
#
# Progress goes to stderr. Exits non-zero (and leaves nothing running) when geth cannot
# be built or started, or the account cannot be funded.
set -euo pipefail

say() { echo "devchain: $*" >&2; }
die() { say "$*"; exit 1; }

if [ "${1:-}" = "stop" ]; then
  if [ -n "${VERILAND_TEST_ETH_PID:-}" ] && kill -0 "$VERILAND_TEST_ETH_PID" 2>/dev/null; then
    kill "$VERILAND_TEST_ETH_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do
      kill -0 "$VERILAND_TEST_ETH_PID" 2>/dev/null || break
      sleep 0.2
    done
    kill -9 "$VERILAND_TEST_ETH_PID" 2>/dev/null || true
  fi
  case "${VERILAND_TEST_ETH_DIR:-}" in
    */veriland-devchain.*) rm -rf "$VERILAND_TEST_ETH_DIR" ;;
  esac
  exit 0
fi
buildOnly=false
case "$*" in
  "") ;;
  build) buildOnly=true ;;
  *) die "usage: eval \"\$(scripts/devchain.sh)\"  |  scripts/devchain.sh stop  |  scripts/devchain.sh build" ;;
esac

cd "$(dirname "$0")/.."
command -v go >/dev/null 2>&1 || die "go not found"

# --- geth at go.mod's version ---------------------------------------------------------
version=$(go list -m -f '{{.Version}}' github.com/ethereum/go-ethereum) || die "go list -m github.com/ethereum/go-ethereum failed"
want=${version#v}
gethVersion() { "$1" version 2>/dev/null | sed -n 's/^Version: *//p' | head -n1; }
sameVersion() { [ -x "$1" ] && case "$(gethVersion "$1")" in "$want" | "$want"-*) return 0 ;; *) return 1 ;; esac; }

cache=${VERILAND_GETH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/veriland/geth-$version}
geth=""
if [ -n "${VERILAND_TEST_GETH:-}" ] && sameVersion "$VERILAND_TEST_GETH"; then
  geth=$VERILAND_TEST_GETH
elif sameVersion "$cache/geth"; then
  geth=$cache/geth
else
  mkdir -p "$cache"
  say "building geth $version into $cache (go install; up to ${VERILAND_GETH_BUILD_TIMEOUT:-900} s)"
  start=$(date +%s)
  # Outside the module (go install pkg@version ignores it anyway).
  if ! (cd "${TMPDIR:-/tmp}" && GOBIN=$cache GOFLAGS='' timeout --kill-after=30 "${VERILAND_GETH_BUILD_TIMEOUT:-900}" \
    go install "github.com/ethereum/go-ethereum/cmd/geth@$version") >&2; then
    die "building geth $version failed or took longer than ${VERILAND_GETH_BUILD_TIMEOUT:-900} s"
  fi
  say "geth built in $(( $(date +%s) - start )) s"
  sameVersion "$cache/geth" || die "$cache/geth does not report version $want"
  geth=$cache/geth
fi
say "using $geth ($(gethVersion "$geth"))"
if $buildOnly; then
  echo "$geth"
  exit 0
fi

# --- start geth --dev --------------------------------------------------------------------
dir=$(mktemp -d "${TMPDIR:-/tmp}/veriland-devchain.XXXXXX")
log=$dir/geth.log
pid=""
fail() {
  say "$*"
  if [ -s "$log" ]; then say "geth log (tail):"; tail -n 20 "$log" >&2; fi
  if [ -n "$pid" ]; then kill -9 "$pid" 2>/dev/null || true; fi
  rm -rf "$dir"
  exit 1
}
trap 'fail "interrupted"' INT TERM

# Ports 0: the kernel picks free ones (geth logs the HTTP endpoint it bound), so two
# dev chains (this one and a test's own) never collide. No discovery, no peers, no IPC.
# stdin/stdout/stderr are detached from the caller: `eval "$(…)"` waits for stdout to close.
start=$(date +%s)
"$geth" --dev --dev.period 0 --datadir "$dir/data" \
  --http --http.addr 127.0.0.1 --http.port 0 --http.api eth,net,web3,txpool \
  --authrpc.addr 127.0.0.1 --authrpc.port 0 --ipcdisable \
  --nodiscover --maxpeers 0 --port 0 --nat none \
  --verbosity 3 </dev/null >"$log" 2>&1 &
pid=$!

deadline=$(( start + ${VERILAND_GETH_START_TIMEOUT:-60} ))
rpc=""
while [ -z "$rpc" ]; do
  kill -0 "$pid" 2>/dev/null || fail "geth exited during start"
  [ "$(date +%s)" -lt "$deadline" ] || fail "geth did not start its HTTP server within ${VERILAND_GETH_START_TIMEOUT:-60} s"
  endpoint=$(sed -n 's/.*HTTP server started.*endpoint=\([0-9.]*:[0-9]*\).*/\1/p' "$log" | head -n1)
  [ -n "$endpoint" ] && rpc="http://$endpoint"
  [ -n "$rpc" ] || sleep 0.2
done

# A JavaScript expression against the node, through geth's own console (no curl or jq
# needed); prints its value.
js() { timeout 30 "$geth" attach --exec "$1" "$rpc" 2>>"$log"; }

chainId=""
while :; do
  out=$(js 'Number(eth.chainId())' || true)
  case "$out" in [0-9]*) chainId=$out; break ;; esac
  [ "$(date +%s)" -lt "$deadline" ] || fail "the node at $rpc did not answer eth_chainId within ${VERILAND_GETH_START_TIMEOUT:-60} s"
  sleep 0.2
done
say "geth --dev (pid $pid) answers at $rpc, chain id $chainId, after $(( $(date +%s) - start )) s"

# --- the registry account: a fresh key, funded from the dev account ----------------------
key=$dir/registry.key
(umask 077 && openssl rand -hex 32 >"$key") 2>/dev/null || (umask 077 && od -An -tx1 -N32 /dev/urandom | tr -d ' \n' >"$key" && echo >>"$key")
chmod 600 "$key"
# geth derives the address: import the key into a scratch keystore (fast KDF).
pw=$dir/empty.password
: >"$pw"
address=$("$geth" account import --lightkdf --keystore "$dir/scratch-keystore" --password "$pw" "$key" 2>>"$log" \
  | sed -n 's/.*Address: {\([0-9a-fA-F]\{40\}\)}.*/0x\1/p' | head -n1)
rm -rf "$dir/scratch-keystore" "$pw"
[ -n "$address" ] || fail "could not derive the registry key's address (geth account import)"

dev=$(js 'eth.accounts[0]' | tr -d '"')
case "$dev" in 0x*) ;; *) fail "the node has no dev account (eth_accounts is empty)" ;; esac
txHash=$(js "eth.sendTransaction({from: eth.accounts[0], to: '$address', value: web3.toWei(1000, 'ether')})" | tr -d '"') \
  || fail "eth_sendTransaction from the dev account $dev failed"
case "$txHash" in 0x*) ;; *) fail "eth_sendTransaction from the dev account $dev: $txHash" ;; esac
status=""
while :; do
  status=$(js "(function(r){return r ? Number(r.status) : 'pending'})(eth.getTransactionReceipt('$txHash'))" || true)
  [ "$status" != pending ] && [ -n "$status" ] && break
  [ "$(date +%s)" -lt "$(( deadline + 30 ))" ] || fail "the funding transaction $txHash was not mined"
  sleep 0.2
done
[ "$status" = 1 ] || fail "the funding transaction $txHash failed (status $status)"
balance=$(js "web3.fromWei(eth.getBalance('$address'), 'ether')")
say "registry account $address funded with $balance ETH from $dev (tx $txHash); key in $key"
trap - INT TERM

q() { printf "'%s'" "${1//\'/\'\\\'\'}"; }
echo "export VERILAND_TEST_ETH_RPC=$(q "$rpc")"
echo "export VERILAND_TEST_ETH_KEY=$(q "$key")"
echo "export VERILAND_TEST_ETH_ADDRESS=$(q "$address")"
echo "export VERILAND_TEST_ETH_CHAIN_ID=$(q "$chainId")"
echo "export VERILAND_TEST_ETH_PID=$(q "$pid")"
echo "export VERILAND_TEST_ETH_DIR=$(q "$dir")"
echo "export VERILAND_TEST_GETH=$(q "$geth")"
