#!/usr/bin/env python3
"""Makes the admin-login EIP-712 vector used in payments-core's admin_login tests with an independent
implementation (eth-account). Run: pip install eth-account && python3 scripts/make-admin-login-vector.py
The private key is a well-known test key; never use it for anything real."""
from eth_account import Account
from eth_account.messages import encode_typed_data

acct = Account.from_key("0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
for chain_id in (8453, 31337):
    data = {
        "types": {
            "EIP712Domain": [
                {"name": "name", "type": "string"},
                {"name": "version", "type": "string"},
                {"name": "chainId", "type": "uint256"},
            ],
            "Login": [
                {"name": "wallet", "type": "address"},
                {"name": "nonce", "type": "string"},
                {"name": "issuedAt", "type": "uint256"},
            ],
        },
        "primaryType": "Login",
        "domain": {"name": "Merchant Payments Admin", "version": "1", "chainId": chain_id},
        "message": {"wallet": acct.address, "nonce": "n-7f3a9c", "issuedAt": 1767599992},
    }
    signed = acct.sign_message(encode_typed_data(full_message=data))
    print(chain_id, acct.address, "0x" + bytes(signed.message_hash).hex(), "0x" + bytes(signed.signature).hex())
