//! The Solidity interfaces the server calls, as alloy `sol!` bindings: only the functions and events it uses
//! (the full contracts are in `contracts/src`).

#![allow(missing_docs, unreachable_pub, missing_debug_implementations)]

use alloy::sol;

sol! {
    /// The ERC-20 surface payments need (the test token adds `mint`).
    #[sol(rpc)]
    interface IPaymentToken {
        event Transfer(address indexed from, address indexed to, uint256 value);
        function balanceOf(address account) external view returns (uint256);
        function allowance(address owner, address spender) external view returns (uint256);
        function transfer(address to, uint256 amount) external returns (bool);
        function mint(address to, uint256 amount) external;
    }

    /// `contracts/src/SplitFactory.sol`.
    #[sol(rpc)]
    interface ISplitFactory {
        function deploy(address[] calldata recipients, uint16[] calldata bps) external returns (address split);
    }

    /// `contracts/src/DepositFactory.sol`.
    #[sol(rpc)]
    interface IDepositFactory {
        function deployAndForward(bytes32 receipt, address split, address token)
            external
            returns (address deposit, uint256 amount);
    }

    /// `contracts/src/Split.sol`.
    #[sol(rpc)]
    interface ISplit {
        event Released(address indexed token, address indexed account, uint256 amount);
        event Distributed(address indexed token, uint256 amount);
        function recipients() external view returns (address[] memory accounts, uint16[] memory bps);
        function distribute(address token) external returns (uint256 total);
    }

    /// `contracts/src/SpendPermissionManager.sol`.
    #[sol(rpc)]
    interface ISpendPermissionManager {
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
        function charge(
            SpendPermission calldata permission,
            bytes calldata signature,
            uint256 fee,
            address feeRecipient,
            uint256 net,
            address merchant
        ) external;
        /// One charge of `chargeBatch`.
        struct Charge {
            SpendPermission permission;
            bytes signature;
            uint256 fee;
            uint256 net;
            address merchant;
        }
        event BatchCharged(uint256 indexed index, bytes32 indexed hash, uint256 fee, uint256 net);
        event BatchChargeFailed(uint256 indexed index, bytes32 indexed hash, bytes reason);
        error InvalidSender(address sender, address expected);
        error BatchOutOfGas(uint256 index);
        error InvalidSignature();
        error Revoked(bytes32 hash);
        error NotApproved(bytes32 hash);
        error BeforeStart(uint48 start, uint256 time);
        error AfterEnd(uint48 end, uint256 time);
        error ExceededAllowance(uint256 total, uint160 allowance);
        error ZeroValue();
        error TransferFailed(address token, address to, uint256 amount);
        /// A plan change (`changePermission`).
        struct Change {
            SpendPermission old;
            SpendPermission replacement;
            bytes signature;
            uint256 fee;
            uint256 net;
            address merchant;
        }
        error AccountMismatch(address old, address replacement);
        function revokeAsSpender(SpendPermission calldata permission) external;
        function changePermission(Change calldata change, address feeRecipient) external;
        function chargeBatch(Charge[] calldata charges, address feeRecipient) external returns (uint256 charged);
        function getHash(SpendPermission calldata permission) external view returns (bytes32);
        function isRevoked(SpendPermission calldata permission) external view returns (bool);
        function getCurrentPeriod(SpendPermission calldata permission)
            external
            view
            returns (uint48 start, uint48 end, uint160 spent);
    }

    /// ERC-1271, as contract accounts implement it.
    #[sol(rpc)]
    interface IERC1271 {
        function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4);
    }
}
