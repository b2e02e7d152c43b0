//! Subscription charges on a node: the spend permission manager's `charge` sent by the relayer, its
//! current-period view, and ERC-1271 signature checks of contract accounts.

use alloy::primitives::{B256, Bytes, FixedBytes, U256};
use payments_core::{SpendPermission, TokenAmount, Wallet};

use crate::chain::ChainError;
use crate::chain::bindings::{IERC1271, IPaymentToken, ISpendPermissionManager};
use crate::chain::rpc::{READ_DEADLINE, RpcChain, contract_error, within};
use crate::chain::spend::{PermissionPeriod, SpendCharge};

/// What `isValidSignature` answers to accept: its own selector.
const ERC1271_MAGIC: FixedBytes<4> = FixedBytes([0x16, 0x26, 0xba, 0x7e]);

/// The permission as the contract's ABI takes it.
pub(super) fn abi_permission(permission: &SpendPermission) -> ISpendPermissionManager::SpendPermission {
    ISpendPermissionManager::SpendPermission {
        account: permission.account,
        spender: permission.spender,
        token: permission.token,
        allowance: permission.allowance,
        period: permission.period,
        start: permission.start,
        end: permission.end,
        salt: permission.salt,
        extraData: permission.extra_data.clone(),
    }
}

impl RpcChain {
    /// `manager.charge(...)` from the relayer; the manager reverts (at gas estimation or mined) whenever it
    /// refuses, and nothing moves.
    pub(super) async fn send_charge(&self, charge: &SpendCharge) -> Result<B256, ChainError> {
        self.writer()?;
        let manager = ISpendPermissionManager::new(charge.manager.address(), &self.provider);
        let call = manager.charge(
            abi_permission(&charge.permission),
            Bytes::copy_from_slice(&charge.signature),
            U256::from(charge.fee.base_units()),
            charge.fee_recipient.address(),
            U256::from(charge.net.base_units()),
            charge.merchant.address(),
        );
        self.mined(call.into_transaction_request()).await
    }

    /// `token.allowance(owner, spender)` at the latest block.
    pub(super) async fn allowance_of(
        &self,
        token: Wallet,
        owner: Wallet,
        spender: Wallet,
    ) -> Result<U256, ChainError> {
        let contract = IPaymentToken::new(token.address(), &self.provider);
        within(READ_DEADLINE, async {
            contract
                .allowance(owner.address(), spender.address())
                .call()
                .await
                .map_err(contract_error)
        })
        .await
    }

    /// `getCurrentPeriod` and `isRevoked` of `permission` at the latest block.
    pub(super) async fn current_period(
        &self,
        manager: Wallet,
        permission: &SpendPermission,
    ) -> Result<PermissionPeriod, ChainError> {
        let manager = ISpendPermissionManager::new(manager.address(), &self.provider);
        let permission = abi_permission(permission);
        let (period, revoked) = within(READ_DEADLINE, async {
            let period = manager
                .getCurrentPeriod(permission.clone())
                .call()
                .await
                .map_err(contract_error)?;
            let revoked = manager
                .isRevoked(permission)
                .call()
                .await
                .map_err(contract_error)?;
            Ok((period, revoked))
        })
        .await?;
        // uint160 spent never exceeds the allowance; a value past 128 bits is reported as the maximum.
        let spent = u128::try_from(period.spent).unwrap_or(u128::MAX);
        Ok(PermissionPeriod {
            start: period.start.to::<u64>(),
            end: period.end.to::<u64>(),
            spent: TokenAmount::from_base_units(spent),
            revoked,
        })
    }

    /// ERC-1271 `isValidSignature(hash, signature)` of `account`: false without code, on a revert or any
    /// answer other than the magic value; an unreachable node is an error, not a refusal.
    pub(super) async fn contract_signature(
        &self,
        account: Wallet,
        hash: B256,
        signature: &[u8],
    ) -> Result<bool, ChainError> {
        if !crate::chain::Chain::has_code(self, account).await? {
            return Ok(false);
        }
        let contract = IERC1271::new(account.address(), &self.provider);
        let answer = within(READ_DEADLINE, async {
            contract
                .isValidSignature(hash, Bytes::copy_from_slice(signature))
                .call()
                .await
                .map_err(contract_error)
        })
        .await;
        match answer {
            Ok(magic) => Ok(magic == ERC1271_MAGIC),
            Err(ChainError::Reverted(_)) => Ok(false),
            Err(error) => Err(error),
        }
    }
}
