// SPDX-License-Identifier: MIT OR Apache-2.0
pragma solidity 0.8.28;

import {TokenTransfer} from "./TokenTransfer.sol";

/// @title SpendPermissionManager
/// @notice Recurring payments with a cap the customer signs once: an account lets a spender take up to
///         `allowance` units of `token` in every `period` seconds between `start` and `end`. The cap is
///         enforced HERE, per period, so a spender (the platform's relayer) cannot take more than the
///         account signed, whatever its own software does. The account must also have approved this
///         contract on the token (`token.approve(manager, amount)`), which it can lower or withdraw at any
///         time; `revoke` ends a permission for good (and so does its spender's `revokeAsSpender`, which
///         `changePermission` uses when a customer moves to another plan).
/// @dev The signed struct and EIP-712 domain ({name "Spend Permission Manager", version "1", chainId,
///      verifyingContract = this}) are the ones wallets sign for Coinbase's manager, so the same signing
///      code works; the token path is different: tokens are pulled with the ERC-20 allowance, which works
///      for any EOA (no smart-wallet hooks).
contract SpendPermissionManager {
    /// @notice What the account signs. Times are Unix seconds; `end` is exclusive.
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

    /// @notice One period's bounds and what was spent in it.
    struct PeriodSpend {
        uint48 start;
        uint48 end;
        uint160 spend;
    }

    /// @notice One charge of a batch: the permission and its signature, the platform's fee and the merchant's
    ///         part (their sum is spent), and where the merchant's part goes.
    struct Charge {
        SpendPermission permission;
        bytes signature;
        uint256 fee;
        uint256 net;
        address merchant;
    }

    /// @notice A plan change: the account's `replacement` permission (and its signature) takes over from
    ///         `old`; `fee + net` is charged on the replacement at once (an upgrade's prorated difference),
    ///         nothing when both are zero.
    struct Change {
        SpendPermission old;
        SpendPermission replacement;
        bytes signature;
        uint256 fee;
        uint256 net;
        address merchant;
    }

    /// @notice The gas each charge of a batch may use: a first charge (signature check, approval, the period
    ///         record, two token transfers) takes about 130k; an ERC-1271 check gets the rest.
    uint256 public constant CHARGE_GAS = 300_000;
    /// What the batch keeps for itself around each charge (its event, the loop, the call's own cost).
    uint256 private constant BATCH_GAS_MARGIN = 20_000;

    bytes32 public constant PERMISSION_TYPEHASH = keccak256(
        "SpendPermission(address account,address spender,address token,uint160 allowance,uint48 period,uint48 start,uint48 end,uint256 salt,bytes extraData)"
    );
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant NAME_HASH = keccak256("Spend Permission Manager");
    bytes32 private constant VERSION_HASH = keccak256("1");
    /// ERC-1271: `isValidSignature(bytes32,bytes)` answers its own selector to accept.
    bytes4 private constant ERC1271_MAGIC = 0x1626ba7e;
    /// Half the secp256k1 order: a larger `s` is the malleable twin of a valid signature (EIP-2).
    uint256 private constant HALF_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    mapping(bytes32 hash => bool) private _approved;
    mapping(bytes32 hash => bool) private _revoked;
    /// The period last spent in; a later period starts again from zero.
    mapping(bytes32 hash => PeriodSpend) private _lastPeriod;

    event SpendPermissionApproved(bytes32 indexed hash, address indexed account, SpendPermission permission);
    event SpendPermissionRevoked(bytes32 indexed hash, address indexed account, SpendPermission permission);
    event SpendPermissionUsed(
        bytes32 indexed hash,
        address indexed account,
        address indexed spender,
        address token,
        uint48 periodStart,
        uint48 periodEnd,
        uint256 value
    );

    /// @notice A charge of a batch went through: `index` is its position in the batch.
    event BatchCharged(uint256 indexed index, bytes32 indexed hash, uint256 fee, uint256 net);
    /// @notice A charge of a batch failed and changed nothing; `reason` is its revert data (a custom error of
    ///         this contract or of `TokenTransfer`, or empty when it ran out of its gas budget).
    event BatchChargeFailed(uint256 indexed index, bytes32 indexed hash, bytes reason);

    error InvalidSender(address sender, address expected);
    error AccountMismatch(address old, address replacement);
    error BatchOutOfGas(uint256 index);
    error InvalidStartEnd(uint48 start, uint48 end);
    error ZeroPeriod();
    error ZeroAllowance();
    error ZeroToken();
    error ZeroValue();
    error InvalidSignature();
    error Revoked(bytes32 hash);
    error NotApproved(bytes32 hash);
    error BeforeStart(uint48 start, uint256 time);
    error AfterEnd(uint48 end, uint256 time);
    error ExceededAllowance(uint256 total, uint160 allowance);

    // ---------------------------------------------------------------- approving and revoking

    /// @notice The account approves its own permission directly (no signature needed).
    /// @return approved false when the permission was revoked (it can never be approved again).
    function approve(SpendPermission calldata permission) external returns (bool approved) {
        _requireSender(permission.account);
        return _approve(getHash(permission), permission);
    }

    /// @notice Anyone submits the account's signature over the permission: an EOA's 65-byte EIP-712
    ///         signature, or whatever the account's contract accepts through ERC-1271.
    /// @return approved false when the permission was revoked.
    function approveWithSignature(SpendPermission calldata permission, bytes calldata signature)
        external
        returns (bool approved)
    {
        bytes32 hash = getHash(permission);
        if (!_isValidSignature(permission.account, hash, signature)) revert InvalidSignature();
        return _approve(hash, permission);
    }

    /// @notice The account ends a permission for good (approved or not yet).
    function revoke(SpendPermission calldata permission) external {
        _requireSender(permission.account);
        _revoke(permission);
    }

    /// @notice The spender ends a permission for good: the platform gives up what the account allowed it
    ///         (a plan change, a subscription it will not charge again). Emits `SpendPermissionRevoked`
    ///         as the account's own `revoke` does.
    function revokeAsSpender(SpendPermission calldata permission) external {
        _requireSender(permission.spender);
        _revoke(permission);
    }

    /// @notice A plan change in one transaction, all or nothing: the spender revokes `change.old`, approves
    ///         `change.replacement` with `change.signature` (the account's, as for `approveWithSignature`)
    ///         and, when `fee + net` is not zero, charges it on the replacement within its current period's
    ///         allowance (`fee` to `feeRecipient`, `net` to `change.merchant`). Both permissions must be the
    ///         caller's to spend and of one account, so the old one can never end without its successor.
    function changePermission(Change calldata change, address feeRecipient) external {
        _requireSender(change.old.spender);
        _requireSender(change.replacement.spender);
        if (change.old.account != change.replacement.account) {
            revert AccountMismatch(change.old.account, change.replacement.account);
        }
        _revoke(change.old);
        if (change.fee == 0 && change.net == 0) {
            _approveSigned(getHash(change.replacement), change.replacement, change.signature);
        } else {
            _charge(change.replacement, change.signature, change.fee, feeRecipient, change.net, change.merchant);
        }
    }

    // ---------------------------------------------------------------- spending

    /// @notice The spender takes `value` from the account for itself, within the current period's allowance.
    function spend(SpendPermission calldata permission, uint160 value) external {
        _requireSender(permission.spender);
        _use(getHash(permission), permission, value);
        TokenTransfer.sendFrom(permission.token, permission.account, permission.spender, value);
    }

    /// @notice A subscription charge in one transaction: approves the permission with `signature` when it is
    ///         not approved yet, spends `fee + net` within the current period's allowance, and pays `fee` to
    ///         `feeRecipient` and `net` to `merchant`. Only the spender may call it; all or nothing.
    /// @dev A zero part is not transferred (no zero-value Transfer log).
    function charge(
        SpendPermission calldata permission,
        bytes calldata signature,
        uint256 fee,
        address feeRecipient,
        uint256 net,
        address merchant
    ) external {
        _requireSender(permission.spender);
        _charge(permission, signature, fee, feeRecipient, net, merchant);
    }

    /// @notice Many subscription charges in one transaction, each one all or nothing on its own: a charge that
    ///         fails (no balance, no token allowance, over the period's allowance, revoked, a bad signature,
    ///         another spender's permission) is reported in `BatchChargeFailed` and reverts only itself; the
    ///         others go through. Each outcome is one event carrying the charge's position in `charges`.
    /// @dev Each charge runs in its own call frame (`this.chargeOne`) with a fixed gas budget, so one
    ///      customer (an ERC-1271 wallet burning gas, a token that reverts) can neither revert nor starve the
    ///      others. Before each charge the batch requires that budget to be available and reverts whole
    ///      otherwise: a gas limit too low for every charge fails loudly (and gas estimation, which searches
    ///      for the lowest limit that does not revert, finds one that gives every charge its full budget)
    ///      instead of turning the last charges into silent failures.
    /// @return charged how many charges went through.
    function chargeBatch(Charge[] calldata charges, address feeRecipient) external returns (uint256 charged) {
        for (uint256 i = 0; i < charges.length; i++) {
            Charge calldata one = charges[i];
            bytes32 hash = getHash(one.permission);
            if (one.permission.spender != msg.sender) {
                emit BatchChargeFailed(
                    i, hash, abi.encodeWithSelector(InvalidSender.selector, msg.sender, one.permission.spender)
                );
                continue;
            }
            if (gasleft() < CHARGE_GAS + BATCH_GAS_MARGIN) revert BatchOutOfGas(i);
            try this.chargeOne{gas: CHARGE_GAS}(one, feeRecipient) {
                charged++;
                emit BatchCharged(i, hash, one.fee, one.net);
            } catch (bytes memory reason) {
                emit BatchChargeFailed(i, hash, reason);
            }
        }
    }

    /// @notice One charge of a batch, in its own call frame; callable only by this contract (from
    ///         `chargeBatch`, which has checked that the batch's sender is the permission's spender).
    function chargeOne(Charge calldata one, address feeRecipient) external {
        _requireSender(address(this));
        _charge(one.permission, one.signature, one.fee, feeRecipient, one.net, one.merchant);
    }

    // ---------------------------------------------------------------- views

    /// @notice The EIP-712 signing hash of `permission` under this contract's domain: its identity here.
    function getHash(SpendPermission calldata permission) public view returns (bytes32) {
        // Encoded in two halves (each a run of 32-byte words, so the concatenation is abi.encode of all
        // ten) to stay within the stack without the IR pipeline.
        bytes memory head = abi.encode(
            PERMISSION_TYPEHASH, permission.account, permission.spender, permission.token, permission.allowance
        );
        bytes memory tail = abi.encode(
            permission.period, permission.start, permission.end, permission.salt, keccak256(permission.extraData)
        );
        bytes32 structHash = keccak256(bytes.concat(head, tail));
        return keccak256(abi.encodePacked("\x19\x01", domainSeparator(), structHash));
    }

    /// @notice The EIP-712 domain separator (computed on every call, so it follows the chain id).
    function domainSeparator() public view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, NAME_HASH, VERSION_HASH, block.chainid, address(this)));
    }

    /// @notice Approved and not revoked: the spender may spend.
    function isApproved(SpendPermission calldata permission) external view returns (bool) {
        bytes32 hash = getHash(permission);
        return _approved[hash] && !_revoked[hash];
    }

    function isRevoked(SpendPermission calldata permission) external view returns (bool) {
        return _revoked[getHash(permission)];
    }

    /// @notice The period containing now and what was spent in it: `start + k * period` for the largest k
    ///         not past now, its end capped at the permission's end. Reverts before `start` and from `end` on.
    function getCurrentPeriod(SpendPermission calldata permission)
        external
        view
        returns (uint48 start, uint48 end, uint160 spent)
    {
        PeriodSpend memory current = _currentPeriod(getHash(permission), permission);
        return (current.start, current.end, current.spend);
    }

    // ---------------------------------------------------------------- internals

    function _requireSender(address expected) private view {
        if (msg.sender != expected) revert InvalidSender(msg.sender, expected);
    }

    /// The charge itself (the caller has checked the sender): approve with the signature if needed, count the
    /// spend, then move the tokens.
    function _charge(
        SpendPermission calldata permission,
        bytes calldata signature,
        uint256 fee,
        address feeRecipient,
        uint256 net,
        address merchant
    ) private {
        bytes32 hash = getHash(permission);
        _approveSigned(hash, permission, signature);
        _use(hash, permission, fee + net);
        // State is final before the token is called, so a re-entrant call sees the spend already counted.
        if (fee != 0) TokenTransfer.sendFrom(permission.token, permission.account, feeRecipient, fee);
        if (net != 0) TokenTransfer.sendFrom(permission.token, permission.account, merchant, net);
    }

    /// Approves `permission` with the account's `signature` unless approved already; reverts when the
    /// signature is not the account's or the permission is revoked.
    function _approveSigned(bytes32 hash, SpendPermission calldata permission, bytes calldata signature) private {
        if (_approved[hash]) return;
        if (!_isValidSignature(permission.account, hash, signature)) revert InvalidSignature();
        if (!_approve(hash, permission)) revert Revoked(hash);
    }

    function _revoke(SpendPermission calldata permission) private {
        bytes32 hash = getHash(permission);
        _revoked[hash] = true;
        emit SpendPermissionRevoked(hash, permission.account, permission);
    }

    /// Records an approval after checking the permission is usable at all; false when revoked.
    function _approve(bytes32 hash, SpendPermission calldata permission) private returns (bool) {
        if (permission.token == address(0)) revert ZeroToken();
        if (permission.start >= permission.end) revert InvalidStartEnd(permission.start, permission.end);
        if (permission.period == 0) revert ZeroPeriod();
        if (permission.allowance == 0) revert ZeroAllowance();
        if (_revoked[hash]) return false;
        if (!_approved[hash]) {
            _approved[hash] = true;
            emit SpendPermissionApproved(hash, permission.account, permission);
        }
        return true;
    }

    /// Counts `value` against the current period's allowance, or reverts.
    function _use(bytes32 hash, SpendPermission calldata permission, uint256 value) private {
        if (value == 0) revert ZeroValue();
        if (_revoked[hash]) revert Revoked(hash);
        if (!_approved[hash]) revert NotApproved(hash);
        PeriodSpend memory current = _currentPeriod(hash, permission);
        uint256 total = uint256(current.spend) + value;
        if (total > permission.allowance) revert ExceededAllowance(total, permission.allowance);
        // total <= allowance, a uint160.
        current.spend = uint160(total);
        _lastPeriod[hash] = current;
        emit SpendPermissionUsed(
            hash, permission.account, permission.spender, permission.token, current.start, current.end, value
        );
    }

    function _currentPeriod(bytes32 hash, SpendPermission calldata permission)
        private
        view
        returns (PeriodSpend memory)
    {
        uint256 time = block.timestamp;
        if (time < permission.start) revert BeforeStart(permission.start, time);
        if (time >= permission.end) revert AfterEnd(permission.end, time);
        PeriodSpend memory last = _lastPeriod[hash];
        // An unset record has end 0, so it never contains now.
        if (last.start <= time && time < last.end) return last;
        if (permission.period == 0) revert ZeroPeriod();
        uint256 start = permission.start + (time - permission.start) / permission.period * permission.period;
        uint256 end = start + permission.period;
        if (end > permission.end) end = permission.end;
        // start <= now < permission.end and end <= permission.end, both uint48.
        return PeriodSpend({start: uint48(start), end: uint48(end), spend: 0});
    }

    /// An EOA's EIP-712 signature (65 bytes r || s || v, low s, v 27/28 or 0/1), or ERC-1271 for a contract.
    function _isValidSignature(address account, bytes32 hash, bytes calldata signature)
        private
        view
        returns (bool)
    {
        if (account.code.length != 0) {
            (bool ok, bytes memory answer) =
                account.staticcall(abi.encodeWithSelector(ERC1271_MAGIC, hash, signature));
            return ok && answer.length >= 32 && abi.decode(answer, (bytes4)) == ERC1271_MAGIC;
        }
        if (signature.length != 65) return false;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        if (uint256(s) > HALF_ORDER || (v != 27 && v != 28)) return false;
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == account;
    }
}
