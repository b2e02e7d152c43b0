// SPDX-License-Identifier: MIT OR Apache-2.0
pragma solidity 0.8.28;

import {Split} from "./Split.sol";

/// @title SplitFactory
/// @notice Deploys `Split` contracts at addresses known from their configuration alone.
/// @dev With `args = abi.encode(recipients, bps)` (the constructor arguments):
///        salt     = keccak256(args)
///        initCode = Split creation bytecode ++ args
///        address  = last 20 bytes of keccak256(0xff ++ factory ++ salt ++ keccak256(initCode))
///      The same configuration in the same order always lands on the same address, so deploying
///      it twice is a no-op and the address can be shown before anything is deployed.
contract SplitFactory {
    /// A new Split now exists at `split` with this configuration.
    event SplitDeployed(address indexed split, address[] recipients, uint16[] bps);

    /// @notice CREATE2 salt of a configuration: keccak256 of the ABI-encoded constructor arguments.
    function saltOf(address[] calldata recipients, uint16[] calldata bps) public pure returns (bytes32) {
        return keccak256(abi.encode(recipients, bps));
    }

    /// @notice Address the Split of this configuration has (or will have) when deployed here.
    /// @dev Pure arithmetic: an invalid configuration also gets an address, but `deploy` of it
    ///      reverts with the Split constructor's error and nothing can ever live there.
    function predict(address[] calldata recipients, uint16[] calldata bps) public view returns (address) {
        bytes memory args = abi.encode(recipients, bps);
        bytes32 initCodeHash = keccak256(abi.encodePacked(type(Split).creationCode, args));
        bytes32 digest = keccak256(abi.encodePacked(bytes1(0xff), address(this), keccak256(args), initCodeHash));
        return address(uint160(uint256(digest)));
    }

    /// @notice Deploys the Split of this configuration, or returns the existing one unchanged.
    /// @return split the Split's address, equal to `predict(recipients, bps)`.
    function deploy(address[] calldata recipients, uint16[] calldata bps) external returns (address split) {
        split = predict(recipients, bps);
        // Idempotent: a second call must not revert (CREATE2 onto existing code would).
        if (split.code.length != 0) return split;
        new Split{salt: saltOf(recipients, bps)}(recipients, bps);
        emit SplitDeployed(split, recipients, bps);
    }
}
