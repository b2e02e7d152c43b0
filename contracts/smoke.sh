#!/usr/bin/env bash
# Smoke test of the compiled artifacts on a throwaway anvil (from contracts/artifacts, not from the
# sources, so it proves exactly what the Rust side embeds). Bounded: anvil gets 20 s to start, every
# cast call 30 s; anvil listens on a port the OS picks on 127.0.0.1 and only that anvil (by its pid)
# is stopped at the end, whatever happens.
#
# Covers: deployment of TestToken and both factories; a 3-recipient split (9000/700/300 bps)
# predicted, deployed, deployed again as a no-op; the CREATE2 formulas of docs/contracts.md
# recomputed here independently of the contracts; invalid configurations refused; a deposit address
# funded before it has code, then deployAndForward (twice, the second a no-op); distribute with the
# remainder rule; a second payment forwarded by a stranger and a pull withdrawal (release) mixed
# with distribute without paying anything twice.
# Prints one line per check and ends with "smoke: N passed, M failed"; exits non-zero on failure.
set -euo pipefail
cd "$(dirname "$0")"

bash install-chain-tools.sh >/dev/null
ANVIL=node_modules/.bin/anvil
CAST=node_modules/.bin/cast

work="$(mktemp -d)"
anvil_pid=""
cleanup() {
  if [ -n "$anvil_pid" ]; then
    kill "$anvil_pid" 2>/dev/null || true
    wait "$anvil_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
# Turn a signal into an ordinary exit so that the EXIT trap (and the kill of anvil) runs.
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# The hardfork is the contracts' evmVersion (see build.mjs): the oldest fork they are meant for.
"$ANVIL" --host 127.0.0.1 --port 0 --hardfork cancun --chain-id 31337 >"$work/anvil.log" 2>&1 &
anvil_pid=$!
port=""
for _ in $(seq 1 200); do
  port="$(sed -n 's/^Listening on 127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' "$work/anvil.log" | head -n 1)"
  if [ -n "$port" ]; then break; fi
  if ! kill -0 "$anvil_pid" 2>/dev/null; then
    cat "$work/anvil.log" >&2
    echo "smoke.sh: anvil exited before listening" >&2
    exit 1
  fi
  sleep 0.1
done
if [ -z "$port" ]; then echo "smoke.sh: anvil did not listen within 20 s" >&2; exit 1; fi
export ETH_RPC_URL="http://127.0.0.1:$port"
echo "anvil $("$ANVIL" --version | sed -n 's/^anvil Version: //p') pid $anvil_pid on $ETH_RPC_URL"

passed=0
failed=0
check() { # check DESCRIPTION ACTUAL EXPECTED
  if [ "$2" = "$3" ]; then
    passed=$((passed + 1)); echo "ok - $1"
  else
    failed=$((failed + 1)); echo "FAIL - $1: got '$2', expected '$3'"
  fi
}
cast_() { timeout 30 "$CAST" "$@"; }
lc() { tr 'A-Z' 'a-z'; }
json() { node -e 'const v=require(process.argv[1]);process.stdout.write(String(eval("v"+process.argv[2])))' "$1" "$2"; }
artifact() { node -e 'process.stdout.write(require("./artifacts/"+process.argv[1]+".json")[process.argv[2]])' "$1" "$2"; }
# send FROM ARGS... : sends a transaction from an unlocked anvil account; receipt in $work/r.json.
send() {
  local from="$1"; shift
  cast_ send --unlocked --from "$from" --json "$@" >"$work/r.json"
  if [ "$(json "$work/r.json" .status)" != "0x1" ]; then echo "smoke.sh: transaction failed: $*" >&2; exit 1; fi
}
logs() { json "$work/r.json" .logs.length; }
gas() { printf '%d' "$(json "$work/r.json" .gasUsed)"; }
num() { cast_ call "$@" | awk '{print $1}'; } # uint256 answers come as "1000001 [1e6]"
addr() { cast_ call "$@" | lc; }
balance() { num "$TOKEN" "balanceOf(address)(uint256)" "$1"; }
# reverts_with DESCRIPTION ERROR_SIGNATURE CALL_ARGS... : the eth_call must revert with that error.
reverts_with() {
  local what="$1" error="$2"; shift 2
  local out selector
  selector="$(cast_ sig "$error")"
  if out="$(cast_ call "$@" 2>&1)"; then
    check "$what" "succeeded" "reverts with $error"
  elif printf '%s' "$out" | grep -q "${selector#0x}"; then
    check "$what" "reverts with $error" "reverts with $error"
  else
    check "$what" "$out" "reverts with $error"
  fi
}

accounts="$(cast_ rpc eth_accounts)"
account() { node -e 'process.stdout.write(JSON.parse(process.argv[1])[Number(process.argv[2])].toLowerCase())' "$accounts" "$1"; }
RELAYER="$(account 0)"  # deploys and forwards, as the platform's relayer key will
STRANGER="$(account 2)" # anybody at all

echo "== deploy"
send "$RELAYER" --create "$(artifact TestToken bytecode)"
TOKEN="$(json "$work/r.json" .contractAddress | lc)"
send "$RELAYER" --create "$(artifact SplitFactory bytecode)"
SPLIT_FACTORY="$(json "$work/r.json" .contractAddress | lc)"
send "$RELAYER" --create "$(artifact DepositFactory bytecode)"
DEPOSIT_FACTORY="$(json "$work/r.json" .contractAddress | lc)"
check "TestToken has 6 decimals" "$(num "$TOKEN" "decimals()(uint8)")" "6"
echo "token $TOKEN, splitFactory $SPLIT_FACTORY, depositFactory $DEPOSIT_FACTORY"

echo "== split: predict, deploy, deploy again"
R1=0x00000000000000000000000000000000000000a1
R2=0x00000000000000000000000000000000000000a2
R3=0x00000000000000000000000000000000000000a3
RECIPIENTS="[$R1,$R2,$R3]"
BPS="[9000,700,300]"
SIG_CONFIG="(address[],uint16[])"
SPLIT="$(addr "$SPLIT_FACTORY" "predict$SIG_CONFIG(address)" "$RECIPIENTS" "$BPS")"
# The formula of docs/contracts.md, computed without the contracts.
args="$(cast_ abi-encode "f$SIG_CONFIG" "$RECIPIENTS" "$BPS")"
salt="$(cast_ keccak "$args")"
computed="$(cast_ compute-address "$SPLIT_FACTORY" --salt "$salt" --init-code "$(artifact Split bytecode)${args#0x}" | sed -n 's/.*: *//p' | lc)"
check "split address from the documented formula equals predict()" "$computed" "$SPLIT"
check "salt from the documented formula equals saltOf()" "$(cast_ call "$SPLIT_FACTORY" "saltOf$SIG_CONFIG(bytes32)" "$RECIPIENTS" "$BPS")" "$salt"
check "no code at the split address before deploy" "$(cast_ code "$SPLIT")" "0x"
send "$RELAYER" "$SPLIT_FACTORY" "deploy$SIG_CONFIG" "$RECIPIENTS" "$BPS"
echo "split $SPLIT deployed (gas $(gas))"
check "first deploy emits SplitDeployed" "$(logs)" "1"
code_hash="$(cast_ keccak "$(cast_ code "$SPLIT")")"
check "split runtime code hash equals keccak(Split.deployedBytecode)" "$code_hash" "$(cast_ keccak "$(artifact Split deployedBytecode)")"
send "$RELAYER" "$SPLIT_FACTORY" "deploy$SIG_CONFIG" "$RECIPIENTS" "$BPS"
check "second deploy succeeds as a no-op (no event)" "$(logs)" "0"
check "code unchanged after the second deploy" "$(cast_ keccak "$(cast_ code "$SPLIT")")" "$code_hash"
check "recipients() returns the configuration" \
  "$(cast_ call "$SPLIT" "recipients()(address[],uint16[])" | lc | tr -d ' \n')" "$(printf '%s%s' "$RECIPIENTS" "$BPS" | tr -d ' ')"

echo "== split: invalid configurations"
reverts_with "shares summing to 9999 are refused" "SharesNotTotal(uint256)" \
  "$SPLIT_FACTORY" "deploy$SIG_CONFIG" "$RECIPIENTS" "[9000,700,299]"
reverts_with "a duplicate recipient is refused" "DuplicateRecipient(address)" \
  "$SPLIT_FACTORY" "deploy$SIG_CONFIG" "[$R1,$R2,$R1]" "$BPS"
reverts_with "the zero address is refused" "ZeroAddress()" \
  "$SPLIT_FACTORY" "deploy$SIG_CONFIG" "[$R1,0x0000000000000000000000000000000000000000]" "[9000,1000]"
reverts_with "a zero share is refused" "ZeroShare(address)" \
  "$SPLIT_FACTORY" "deploy$SIG_CONFIG" "[$R1,$R2]" "[10000,0]"
reverts_with "mismatched lengths are refused" "LengthMismatch(uint256,uint256)" \
  "$SPLIT_FACTORY" "deploy$SIG_CONFIG" "[$R1,$R2]" "$BPS"

echo "== deposit: pay the predicted address, then deployAndForward"
RECEIPT="$(cast_ keccak "receipt-0001")"
SIG_DEPOSIT="(bytes32,address,address)"
DEPOSIT="$(addr "$DEPOSIT_FACTORY" "predict$SIG_DEPOSIT(address)" "$RECEIPT" "$SPLIT" "$TOKEN")"
dsalt="$(cast_ keccak "$(cast_ abi-encode "f$SIG_DEPOSIT" "$RECEIPT" "$SPLIT" "$TOKEN")")"
dargs="$(cast_ abi-encode "f(address,address)" "$SPLIT" "$TOKEN")"
computed="$(cast_ compute-address "$DEPOSIT_FACTORY" --salt "$dsalt" --init-code "$(artifact Deposit bytecode)${dargs#0x}" | sed -n 's/.*: *//p' | lc)"
check "deposit address from the documented formula equals predict()" "$computed" "$DEPOSIT"
other="$(addr "$DEPOSIT_FACTORY" "predict$SIG_DEPOSIT(address)" "$(cast_ keccak "receipt-0002")" "$SPLIT" "$TOKEN")"
check "another receipt gets another deposit address" "$([ "$other" != "$DEPOSIT" ] && echo distinct)" "distinct"
AMOUNT=1000001
send "$STRANGER" "$TOKEN" "mint(address,uint256)" "$DEPOSIT" "$AMOUNT"
check "the buyer's payment sits at the address before any code is there" "$(cast_ code "$DEPOSIT"):$(balance "$DEPOSIT")" "0x:$AMOUNT"
send "$RELAYER" "$DEPOSIT_FACTORY" "deployAndForward$SIG_DEPOSIT" "$RECEIPT" "$SPLIT" "$TOKEN"
echo "deposit $DEPOSIT deployed and forwarded (gas $(gas))"
check "deployAndForward moved the whole payment to the split" "$(balance "$DEPOSIT"):$(balance "$SPLIT")" "0:$AMOUNT"
check "the deposit is bound to the split and the token" \
  "$(addr "$DEPOSIT" "split()(address)"):$(addr "$DEPOSIT" "token()(address)")" "$SPLIT:$TOKEN"
send "$RELAYER" "$DEPOSIT_FACTORY" "deployAndForward$SIG_DEPOSIT" "$RECEIPT" "$SPLIT" "$TOKEN"
check "a second deployAndForward is a no-op (no event, no transfer)" "$(logs)" "0"

echo "== distribute"
check "releasable of the first recipient includes the remainder" \
  "$(num "$SPLIT" "releasable(address,address)(uint256)" "$TOKEN" "$R1")" "900001"
send "$RELAYER" "$SPLIT" "distribute(address)" "$TOKEN"
echo "distributed (gas $(gas))"
b1="$(balance "$R1")"; b2="$(balance "$R2")"; b3="$(balance "$R3")"
check "9000 bps of 1000001 plus the remainder 1 to the first recipient" "$b1" "900001"
check "700 bps of 1000001, floored" "$b2" "70000"
check "300 bps of 1000001, floored" "$b3" "30000"
check "parts sum exactly to the amount, split left empty" "$((b1 + b2 + b3)):$(balance "$SPLIT")" "$AMOUNT:0"
send "$RELAYER" "$SPLIT" "distribute(address)" "$TOKEN"
check "distribute with nothing new is a no-op" "$(logs)" "0"

echo "== a second payment, forwarded by a stranger; pull withdrawal mixed with distribute"
SECOND=333
send "$STRANGER" "$TOKEN" "mint(address,uint256)" "$DEPOSIT" "$SECOND"
send "$STRANGER" "$DEPOSIT" "forward()"
check "anyone may forward, and only to the split" "$(balance "$DEPOSIT"):$(balance "$SPLIT")" "0:$SECOND"
# 333 -> floor(333*700/10000)=23, floor(333*300/10000)=9, first gets 333-23-9=301.
check "releasable before allocation: 301/23/9" \
  "$(num "$SPLIT" "releasable(address,address)(uint256)" "$TOKEN" "$R1")/$(num "$SPLIT" "releasable(address,address)(uint256)" "$TOKEN" "$R2")/$(num "$SPLIT" "releasable(address,address)(uint256)" "$TOKEN" "$R3")" "301/23/9"
send "$STRANGER" "$SPLIT" "release(address,address)" "$TOKEN" "$R2"
check "release pays the second recipient its 23" "$(balance "$R2")" "70023"
send "$STRANGER" "$SPLIT" "release(address,address)" "$TOKEN" "$R2"
check "a second release pays nothing more" "$(logs):$(balance "$R2")" "0:70023"
reverts_with "release for a non-recipient is refused" "NotRecipient(address)" \
  "$SPLIT" "release(address,address)" "$TOKEN" "$STRANGER"
send "$RELAYER" "$SPLIT" "distribute(address)" "$TOKEN"
b1="$(balance "$R1")"; b2="$(balance "$R2")"; b3="$(balance "$R3")"
check "distribute after release pays only the others' remaining parts" "$b1/$b2/$b3" "900302/70023/30009"
total=$((AMOUNT + SECOND))
check "everything ever paid in was paid out exactly once" "$((b1 + b2 + b3)):$(balance "$SPLIT")" "$total:0"
check "totalReleased equals the sum paid in" "$(num "$SPLIT" "totalReleased(address)(uint256)" "$TOKEN")" "$total"

echo "smoke: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
