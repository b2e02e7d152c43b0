// SPDX-License-Identifier: MIT OR Apache-2.0
pragma solidity 0.8.28;

import {TestWallet} from "./TestWallet.sol";

/// @title TestWalletFactory
/// @notice Deploys `TestWallet`s at CREATE2 addresses known beforehand, as smart-wallet factories do: a test
///         can sign for `accountAddress(owner, salt)` while nothing lives there yet (a counterfactual wallet,
///         ERC-6492) and deploy it later with `createAccount(owner, salt)`. Tests only.
contract TestWalletFactory {
    event AccountCreated(address indexed account, address indexed owner, uint256 salt);

    /// @notice Deploys the wallet of `owner` for `salt`; a no-op answering the address when it exists.
    function createAccount(address owner, uint256 salt) external returns (address account) {
        account = accountAddress(owner, salt);
        if (account.code.length != 0) return account;
        new TestWallet{salt: bytes32(salt)}(owner);
        emit AccountCreated(account, owner, salt);
    }

    /// @notice The address `createAccount(owner, salt)` deploys to (EIP-1014), whether deployed or not.
    function accountAddress(address owner, uint256 salt) public view returns (address) {
        bytes32 initCodeHash = keccak256(abi.encodePacked(type(TestWallet).creationCode, abi.encode(owner)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, initCodeHash)))));
    }
}
