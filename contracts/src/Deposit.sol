// SPDX-License-Identifier: MIT OR Apache-2.0
pragma solidity 0.8.28;

import {IERC20Minimal, TokenTransfer} from "./TokenTransfer.sol";

/// @title Deposit
/// @notice The payment address of one receipt. Its only ability is to move its whole balance of
///         one token to one split, both fixed at deployment.
/// @dev `forward` is open to anyone on purpose: the destination cannot be chosen, so the worst a
///      stranger can do is pay the gas for a forward the platform would have made anyway. There is
///      no owner, no other token and no ether path (a plain ether transfer reverts: no receive
///      function); tokens other than `token` sent here stay here.
contract Deposit {
    /// Where the funds go.
    address public immutable split;
    /// The only token this deposit moves.
    address public immutable token;

    error ZeroAddress();

    constructor(address split_, address token_) {
        if (split_ == address(0) || token_ == address(0)) revert ZeroAddress();
        split = split_;
        token = token_;
    }

    /// @notice Moves the whole `token` balance to `split`.
    /// @return amount the amount moved (0 when empty; no revert).
    function forward() external returns (uint256 amount) {
        amount = IERC20Minimal(token).balanceOf(address(this));
        if (amount != 0) TokenTransfer.send(token, split, amount);
    }
}
