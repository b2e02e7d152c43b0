#!/usr/bin/env bash
# Writes contracts/vectors/create2.json: split and deposit addresses computed by foundry's `cast` (an
# independent implementation of ABI encoding, keccak and CREATE2) from the committed artifacts and the
# formulas of docs/contracts.md. payments-core's tests check its own derivation against this file; rerun it
# whenever contracts/artifacts change (the Rust tests fail until then).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
cast=node_modules/.bin/cast
if [[ ! -x "$cast" ]]; then bash install-chain-tools.sh >/dev/null; fi
artifact() { node -e "process.stdout.write(require('./artifacts/$1.json').$2)"; }
address_of() { "$cast" compute-address "$1" --salt "$2" --init-code "$3" | sed -n 's/.*: *//p' | tr 'A-F' 'a-f'; }

split_factory=0x5fbdb2315678afecb367f032d93f642f64180aa3
deposit_factory=0xe7f1725e7734ce288f8367e1bb143e90bb3f0512
token=0x9fe46736679d2d9a65f0992f6272de9f3c7fa6e0
merchant=0x70997970c51812dc3a010c7d01b50e0d17dc79c8

split_vector() { # recipients bps
    local args salt
    args=$("$cast" abi-encode "f(address[],uint16[])" "$1" "$2")
    salt=$("$cast" keccak "$args")
    printf '{"factory":"%s","recipients":"%s","bps":"%s","salt":"%s","address":"%s"}' \
        "$split_factory" "$1" "$2" "$salt" "$(address_of "$split_factory" "$salt" "$(artifact Split bytecode)${args#0x}")"
}

deposit_vector() { # receipt id, split address
    local id_hex receipt salt args
    id_hex=$(printf '%s' "$1" | od -An -tx1 | tr -d ' \n')
    receipt=$("$cast" keccak "${merchant}${id_hex}")
    salt=$("$cast" keccak "$("$cast" abi-encode "f(bytes32,address,address)" "$receipt" "$2" "$token")")
    args=$("$cast" abi-encode "f(address,address)" "$2" "$token")
    printf '{"factory":"%s","merchant":"%s","receiptId":"%s","receiptSalt":"%s","split":"%s","token":"%s","address":"%s"}' \
        "$deposit_factory" "$merchant" "$1" "$receipt" "$2" "$token" \
        "$(address_of "$deposit_factory" "$salt" "$(artifact Deposit bytecode)${args#0x}")"
}

three="[0x1111111111111111111111111111111111111111,0x2222222222222222222222222222222222222222,0x3333333333333333333333333333333333333333]"
one="[0x4444444444444444444444444444444444444444]"
split_three=$(split_vector "$three" "[9000,700,300]")
split_one=$(split_vector "$one" "[10000]")
split_three_address=$(node -e "process.stdout.write(JSON.parse(process.argv[1]).address)" "$split_three")
{
    printf '{\n  "generatedBy": "contracts/vectors.sh with cast %s",\n' "$("$cast" --version | head -1 | awk '{print $3}')"
    printf '  "splits": [\n    %s,\n    %s\n  ],\n' "$split_three" "$split_one"
    printf '  "deposits": [\n    %s,\n    %s\n  ]\n}\n' \
        "$(deposit_vector "order-1001" "$split_three_address")" "$(deposit_vector "receipt-émoji-☕" "$split_three_address")"
} >vectors/create2.json
echo "wrote contracts/vectors/create2.json"
