//! The EIP-712 type of a spend permission, as the contract declares it, and the generic signing hash.

use super::SpendPermission;
use alloy_primitives::B256;
use alloy_sol_types::{Eip712Domain, SolStruct};

// The struct name and field order are the EIP-712 type string
// `SpendPermission(address account,address spender,address token,uint160 allowance,uint48 period,
// uint48 start,uint48 end,uint256 salt,bytes extraData)`; changing either changes every digest.
mod typed {
    alloy_sol_types::sol! {
        #[derive(Debug)]
        struct SpendPermission {
            address account;
            address spender;
            address token;
            uint160 allowance;
            uint48 period;
            uint48 start;
            uint48 end;
            uint256 salt;
            bytes extraData;
        }
    }
}

/// The `sol!` struct, whose EIP-712 type the JSON typed-data document spells out.
pub(super) use typed::SpendPermission as SpendPermissionType;

/// The `sol!` twin of a domain permission, ready to hash.
pub(super) fn typed(permission: &SpendPermission) -> typed::SpendPermission {
    typed::SpendPermission {
        account: permission.account,
        spender: permission.spender,
        token: permission.token,
        allowance: permission.allowance,
        period: permission.period,
        start: permission.start,
        end: permission.end,
        salt: permission.salt,
        extraData: permission.extra_data.clone(),
    }
}

/// The [EIP-712](https://eips.ethereum.org/EIPS/eip-712) signing hash of any `sol!` struct under
/// `domain`: `keccak256(0x1901 || domainSeparator || hashStruct(value))`.
///
/// This is the 32-byte prehash a wallet signs for `eth_signTypedData_v4`; pass it with the signature to
/// [`recover_address`](super::recover_address) to learn who signed.
pub fn eip712_signing_hash<T: SolStruct>(value: &T, domain: &Eip712Domain) -> B256 {
    value.eip712_signing_hash(domain)
}
