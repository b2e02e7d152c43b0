// SPDX-License-Identifier: MIT OR Apache-2.0
pragma solidity 0.8.28;

/// @notice The ERC-20 calls the payment contracts need; nothing more is assumed of the token.
interface IERC20Minimal {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// @notice Sends ERC-20 tokens and treats every form of failure as a revert.
/// @dev Written as a low-level call because some deployed tokens return nothing from `transfer`
///      instead of a bool; a typed call would revert when decoding their empty answer.
library TokenTransfer {
    /// The token refused the transfer, returned `false`, or is not a contract at all.
    error TransferFailed(address token, address to, uint256 amount);

    function send(address token, address to, uint256 amount) internal {
        (bool ok, bytes memory answer) = token.call(abi.encodeCall(IERC20Minimal.transfer, (to, amount)));
        // A call to an address without code "succeeds" with an empty answer, so an empty answer
        // only counts when there is a contract behind the address.
        bool accepted = ok && (answer.length == 0 ? token.code.length != 0 : abi.decode(answer, (bool)));
        if (!accepted) revert TransferFailed(token, to, amount);
    }

    /// Moves `amount` from `from` (which approved the caller on the token) to `to`, with the same rules.
    function sendFrom(address token, address from, address to, uint256 amount) internal {
        (bool ok, bytes memory answer) =
            token.call(abi.encodeCall(IERC20Minimal.transferFrom, (from, to, amount)));
        bool accepted = ok && (answer.length == 0 ? token.code.length != 0 : abi.decode(answer, (bool)));
        if (!accepted) revert TransferFailed(token, to, amount);
    }
}
