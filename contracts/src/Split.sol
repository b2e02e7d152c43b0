// SPDX-License-Identifier: MIT OR Apache-2.0
pragma solidity 0.8.28;

import {IERC20Minimal, TokenTransfer} from "./TokenTransfer.sol";

/// @title Split
/// @notice Holds ERC-20 tokens for a fixed list of recipients and pays each one its share in basis
///         points, either pushed to everybody at once (`distribute`) or pulled by one recipient
///         (`release`). The list is set once in the constructor and can never change.
/// @dev Accounting, in one sentence: every token unit that arrives is *allocated* exactly once to
///      the recipients' pending balances, and every pending unit is *paid* exactly once.
///
///      - Allocation. Funds that arrived since the last allocation are
///        `balanceOf(this) - totalPending[token]`. They are cut into parts of
///        `floor(amount * bps / 10000)` for every recipient except the first; the first recipient
///        gets what is left, so the parts of one allocation always add up to the amount exactly
///        (the rounding remainder, at most one unit per other recipient, goes to recipient 0).
///      - Payment. `distribute` and `release` first allocate whatever is new, then pay out pending
///        balances and zero them before the token transfer. Since a unit is allocated once and a
///        pending balance is paid once, mixing the two paths can never pay anything twice.
///
///      Unlike a "total received times share minus released" formula, this keeps exact sums with a
///      remainder rule: such a formula with the remainder folded into one recipient is not
///      monotonic and could promise more than the balance after a pull withdrawal.
///
///      Assumes a standard ERC-20 (balance changes only through transfers; no fee on transfer, no
///      rebasing). The contract has no state-changing code besides allocation and payment, no
///      owner and no upgrade path; its runtime code is identical for every configuration (there
///      are no immutables), so `extcodehash` tells whether an address holds a genuine Split.
contract Split {
    /// Basis points in a whole.
    uint256 public constant TOTAL_BPS = 10_000;
    /// Bound on the list so that `distribute` always fits in a block.
    uint256 public constant MAX_RECIPIENTS = 32;

    /// Recipients in configuration order; index 0 receives the rounding remainders.
    address[] private _recipients;
    /// Share of each recipient in basis points; 0 for any other address.
    mapping(address account => uint256) public bpsOf;

    /// Sum of all recipients' pending balances of a token (allocated, not yet paid).
    mapping(address token => uint256) public totalPending;
    /// Allocated but not yet paid amount of a token per recipient.
    mapping(address token => mapping(address account => uint256)) public pendingOf;
    /// Everything ever paid out of a token.
    mapping(address token => uint256) public totalReleased;
    /// Everything ever paid out of a token to one recipient.
    mapping(address token => mapping(address account => uint256)) public released;

    /// Re-entrancy guard; transient storage keeps it free of lasting writes.
    bool private transient _busy;

    /// `amount` new units of `token` were cut into the recipients' pending balances.
    event Allocated(address indexed token, uint256 amount);
    /// `amount` units of `token` were transferred to `account` (by `release` or by `distribute`).
    event Released(address indexed token, address indexed account, uint256 amount);
    /// One `distribute` call paid `amount` units of `token` in total (only emitted when non-zero).
    event Distributed(address indexed token, uint256 amount);

    error NoRecipients();
    error TooManyRecipients(uint256 count);
    error LengthMismatch(uint256 recipients, uint256 shares);
    error ZeroAddress();
    error ZeroShare(address account);
    error DuplicateRecipient(address account);
    error SharesNotTotal(uint256 sum);
    error NotRecipient(address account);
    error Reentered();

    /// @param recipients_ payees in order; the first one receives rounding remainders.
    /// @param bps_ each payee's share in basis points; every share > 0 and the sum exactly 10000.
    constructor(address[] memory recipients_, uint16[] memory bps_) {
        uint256 count = recipients_.length;
        if (count == 0) revert NoRecipients();
        if (count > MAX_RECIPIENTS) revert TooManyRecipients(count);
        if (count != bps_.length) revert LengthMismatch(count, bps_.length);
        uint256 sum;
        for (uint256 i = 0; i < count; ++i) {
            address account = recipients_[i];
            if (account == address(0)) revert ZeroAddress();
            // A zero share would be a recipient that never receives anything: refuse it so that one
            // set of payees has one canonical configuration (and so one CREATE2 address).
            if (bps_[i] == 0) revert ZeroShare(account);
            // bpsOf doubles as the duplicate check: every accepted recipient has a non-zero share.
            if (bpsOf[account] != 0) revert DuplicateRecipient(account);
            bpsOf[account] = bps_[i];
            sum += bps_[i];
            _recipients.push(account);
        }
        if (sum != TOTAL_BPS) revert SharesNotTotal(sum);
    }

    modifier guarded() {
        if (_busy) revert Reentered();
        _busy = true;
        _;
        _busy = false;
    }

    /// @notice The configuration, in the order given to the constructor.
    function recipients() external view returns (address[] memory accounts, uint16[] memory bps) {
        uint256 count = _recipients.length;
        accounts = new address[](count);
        bps = new uint16[](count);
        for (uint256 i = 0; i < count; ++i) {
            accounts[i] = _recipients[i];
            bps[i] = uint16(bpsOf[_recipients[i]]);
        }
    }

    /// @notice What `release(token, account)` would pay right now (pending plus the account's part
    ///         of funds not yet allocated).
    function releasable(address token, address account) external view returns (uint256) {
        uint256 due = pendingOf[token][account];
        uint256 share = bpsOf[account];
        if (share == 0) return due;
        uint256 unallocated = _unallocated(token);
        if (account != _recipients[0]) return due + (unallocated * share) / TOTAL_BPS;
        // The first recipient's part is what the others' floored parts leave over.
        uint256 others;
        for (uint256 i = 1; i < _recipients.length; ++i) {
            others += (unallocated * bpsOf[_recipients[i]]) / TOTAL_BPS;
        }
        return due + unallocated - others;
    }

    /// @notice Pays every recipient everything it is due in `token`; callable by anyone.
    /// @return total the amount transferred out by this call (0 when nothing was due).
    function distribute(address token) external guarded returns (uint256 total) {
        _allocate(token);
        uint256 count = _recipients.length;
        for (uint256 i = 0; i < count; ++i) {
            total += _pay(token, _recipients[i]);
        }
        if (total != 0) emit Distributed(token, total);
    }

    /// @notice Pays one recipient everything it is due in `token` (the pull path); callable by
    ///         anyone, the money always goes to `account`.
    /// @return amount the amount transferred (0 when nothing was due; no revert).
    function release(address token, address account) external guarded returns (uint256 amount) {
        if (bpsOf[account] == 0) revert NotRecipient(account);
        _allocate(token);
        amount = _pay(token, account);
    }

    /// Funds that arrived since the last allocation.
    function _unallocated(address token) private view returns (uint256) {
        uint256 balance = IERC20Minimal(token).balanceOf(address(this));
        uint256 pending = totalPending[token];
        // A balance below the pending total can only come from a non-standard token; allocate
        // nothing rather than underflow.
        return balance > pending ? balance - pending : 0;
    }

    /// Cuts newly arrived funds into pending balances; see the contract notes for the rule.
    function _allocate(address token) private {
        uint256 amount = _unallocated(token);
        if (amount == 0) return;
        uint256 count = _recipients.length;
        uint256 given;
        for (uint256 i = 1; i < count; ++i) {
            address account = _recipients[i];
            uint256 part = (amount * bpsOf[account]) / TOTAL_BPS;
            pendingOf[token][account] += part;
            given += part;
        }
        pendingOf[token][_recipients[0]] += amount - given;
        totalPending[token] += amount;
        emit Allocated(token, amount);
    }

    /// Pays and clears one pending balance; state is settled before the external transfer.
    function _pay(address token, address account) private returns (uint256 amount) {
        amount = pendingOf[token][account];
        if (amount == 0) return 0;
        pendingOf[token][account] = 0;
        totalPending[token] -= amount;
        totalReleased[token] += amount;
        released[token][account] += amount;
        emit Released(token, account, amount);
        TokenTransfer.send(token, account, amount);
    }
}
