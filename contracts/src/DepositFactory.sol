// SPDX-License-Identifier: MIT OR Apache-2.0
pragma solidity 0.8.28;

import {Deposit} from "./Deposit.sol";

/// @title DepositFactory
/// @notice Deploys per-receipt `Deposit` forwarders at addresses known before deployment, so a
///         buyer can pay a receipt's own address before any contract exists there.
/// @dev For a receipt salt `receipt` (any bytes32 the server derives from the receipt):
///        salt     = keccak256(abi.encode(receipt, split, token))
///        initCode = Deposit creation bytecode ++ abi.encode(split, token)
///        address  = last 20 bytes of keccak256(0xff ++ factory ++ salt ++ keccak256(initCode))
///      The salt covers split and token too, so the same receipt salt with another split or token
///      can never collide with, or be mistaken for, the original deposit address.
contract DepositFactory {
    /// A new Deposit now exists at `deposit`.
    event DepositDeployed(address indexed deposit, bytes32 indexed receipt, address indexed split, address token);

    /// @notice CREATE2 salt of a deposit.
    function saltOf(bytes32 receipt, address split, address token) public pure returns (bytes32) {
        return keccak256(abi.encode(receipt, split, token));
    }

    /// @notice Address of the deposit for this receipt, split and token (deployed or not).
    function predict(bytes32 receipt, address split, address token) public view returns (address) {
        bytes32 initCodeHash = keccak256(abi.encodePacked(type(Deposit).creationCode, abi.encode(split, token)));
        bytes32 digest =
            keccak256(abi.encodePacked(bytes1(0xff), address(this), saltOf(receipt, split, token), initCodeHash));
        return address(uint160(uint256(digest)));
    }

    /// @notice Deploys the deposit, or returns the existing one unchanged (idempotent).
    function deploy(bytes32 receipt, address split, address token) public returns (address deposit) {
        deposit = predict(receipt, split, token);
        if (deposit.code.length != 0) return deposit;
        new Deposit{salt: saltOf(receipt, split, token)}(split, token);
        emit DepositDeployed(deposit, receipt, split, token);
    }

    /// @notice Deploys the deposit if needed and forwards its whole token balance to the split.
    /// @return deposit the deposit's address; amount what was forwarded (may be 0).
    function deployAndForward(bytes32 receipt, address split, address token)
        external
        returns (address deposit, uint256 amount)
    {
        deposit = deploy(receipt, split, token);
        amount = Deposit(deposit).forward();
    }
}
