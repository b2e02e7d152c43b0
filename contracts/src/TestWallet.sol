// SPDX-License-Identifier: MIT OR Apache-2.0
pragma solidity 0.8.28;

/// @title TestWallet
/// @notice The smallest contract account: one owner key, ERC-1271 signatures by that key, and calls made
///         for the owner. For tests of contract-account spend permissions only.
contract TestWallet {
    address public immutable owner;

    error NotOwner(address sender);
    error CallFailed(bytes answer);

    constructor(address owner_) {
        owner = owner_;
    }

    /// @notice ERC-1271: accepts a 65-byte signature of `hash` by the owner's key.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length == 65) {
            uint8 v = uint8(signature[64]);
            address signer = ecrecover(hash, v < 27 ? v + 27 : v, bytes32(signature[0:32]), bytes32(signature[32:64]));
            if (signer != address(0) && signer == owner) return this.isValidSignature.selector;
        }
        return 0xffffffff;
    }

    /// @notice The owner makes the wallet call `target` (e.g. `token.approve(manager, amount)`).
    function execute(address target, bytes calldata data) external returns (bytes memory) {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        (bool ok, bytes memory answer) = target.call(data);
        if (!ok) revert CallFailed(answer);
        return answer;
    }
}
