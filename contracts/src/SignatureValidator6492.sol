// SPDX-License-Identifier: MIT OR Apache-2.0
pragma solidity 0.8.28;

/// @title SignatureValidator6492
/// @notice Never deployed. The server runs its creation code with `eth_call` and no `to` (a "deployless"
///         call), with the constructor arguments appended, to ask whether `account` accepts `signature` over
///         `hash` when `account` may be a smart wallet that does not exist yet (ERC-6492). The constructor
///         does the whole check and ends with an assembly `return` of one ABI word, 1 (valid) or 0, which is
///         the output of the call. An `eth_call` keeps no state, so the wallet deployed here for the check
///         is forgotten afterwards, and since this code never lives at an address, the factory call it makes
///         carries no privilege of ours (no token allowance, no role).
contract SignatureValidator6492 {
    /// The 32 bytes that end an ERC-6492 signature: `abi.encode(factory, factoryCalldata, innerSignature)`
    /// followed by this suffix.
    bytes32 private constant ERC6492_SUFFIX = 0x6492649264926492649264926492649264926492649264926492649264926492;
    /// ERC-1271: `isValidSignature(bytes32,bytes)` answers its own selector to accept.
    bytes4 private constant ERC1271_MAGIC = 0x1626ba7e;

    constructor(address account, bytes32 hash, bytes memory signature) {
        bool valid = _isValid(account, hash, signature);
        assembly ("memory-safe") {
            mstore(0, valid)
            return(0, 32)
        }
    }

    /// A wrapped signature deploys the account through its factory first when the account has no code, then
    /// the account's ERC-1271 answer to the inner signature decides. An unwrapped one goes to ERC-1271 as
    /// is. No code at the account after that (a factory that failed or deployed elsewhere) is a refusal.
    function _isValid(address account, bytes32 hash, bytes memory signature) private returns (bool) {
        bytes memory inner = signature;
        if (_isWrapped(signature)) {
            // Drop the suffix in place (the length word shrinks by 32), then decode the three fields.
            assembly ("memory-safe") {
                mstore(signature, sub(mload(signature), 32))
            }
            address factory;
            bytes memory factoryCalldata;
            (factory, factoryCalldata, inner) = abi.decode(signature, (address, bytes, bytes));
            if (account.code.length == 0) {
                (bool deployed,) = factory.call(factoryCalldata);
                if (!deployed) return false;
            }
        }
        if (account.code.length == 0) return false;
        (bool answered, bytes memory answer) =
            account.staticcall(abi.encodeWithSelector(ERC1271_MAGIC, hash, inner));
        return answered && answer.length == 32 && bytes32(answer) == bytes32(ERC1271_MAGIC);
    }

    function _isWrapped(bytes memory signature) private pure returns (bool wrapped) {
        uint256 length = signature.length;
        if (length < 32) return false;
        bytes32 tail;
        assembly ("memory-safe") {
            tail := mload(add(signature, length))
        }
        wrapped = tail == ERC6492_SUFFIX;
    }
}
