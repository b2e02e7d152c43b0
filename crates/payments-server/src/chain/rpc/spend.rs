//! Subscription charges on a node: the spend permission manager's `charge` sent by the relayer, its
//! current-period view, and signature checks of contract accounts: ERC-1271 for a deployed one, ERC-6492
//! (a deployless `eth_call` of `SignatureValidator6492`) for one that does not exist yet.

use alloy::network::TransactionBuilder;
use alloy::primitives::{B256, Bytes, FixedBytes, U256};
use alloy::providers::Provider;
use alloy::rpc::types::TransactionRequest;
use alloy::sol_types::SolValue;
use payments_core::{
    CounterfactualSignature, SIGNATURE_VALIDATOR_6492_CREATION_CODE, SpendPermission, TokenAmount, Wallet,
};

use crate::chain::ChainError;
use crate::chain::bindings::{IERC1271, IPaymentToken, ISpendPermissionManager};
use crate::chain::rpc::{READ_DEADLINE, RpcChain, contract_error, rpc_error, within};
use crate::chain::spend::{PermissionChange, PermissionPeriod, SpendCharge};

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

    /// `manager.changePermission(...)` from the relayer: the old permission revoked, the replacement approved
    /// and charged `fee + net`, in one transaction; a refusal reverts (at gas estimation or mined) and
    /// nothing changes.
    pub(super) async fn send_permission_change(&self, change: &PermissionChange) -> Result<B256, ChainError> {
        self.writer()?;
        let manager = ISpendPermissionManager::new(change.manager.address(), &self.provider);
        let call = manager.changePermission(
            ISpendPermissionManager::Change {
                old: abi_permission(&change.old),
                replacement: abi_permission(&change.replacement),
                signature: Bytes::copy_from_slice(&change.signature),
                fee: U256::from(change.fee.base_units()),
                net: U256::from(change.net.base_units()),
                merchant: change.merchant.address(),
            },
            change.fee_recipient.address(),
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

    /// Whether the contract account `account` accepts `signature` over `hash`. A deployed account is asked
    /// by ERC-1271 (the inner signature when it is ERC-6492-wrapped: the wallet exists, its factory call is
    /// moot); an account without code is asked through its ERC-6492 wrapper, else it accepts nothing. False on
    /// a revert or any answer other than "valid"; an unreachable node is an error, not a refusal.
    pub(super) async fn contract_signature(
        &self,
        account: Wallet,
        hash: B256,
        signature: &[u8],
    ) -> Result<bool, ChainError> {
        // A malformed wrapper is no ERC-6492 signature; as plain bytes, a wallet refuses it by itself.
        let wrapped = CounterfactualSignature::parse(signature).ok().flatten();
        let deployed = crate::chain::Chain::has_code(self, account).await?;
        match (deployed, wrapped) {
            (true, Some(wrapped)) => self.erc1271(account, hash, &wrapped.inner).await,
            (true, None) => self.erc1271(account, hash, signature).await,
            (false, Some(_)) => self.counterfactual_signature(account, hash, signature).await,
            (false, None) => Ok(false),
        }
    }

    /// ERC-1271 `isValidSignature(hash, signature)` of the deployed `account`.
    async fn erc1271(&self, account: Wallet, hash: B256, signature: &[u8]) -> Result<bool, ChainError> {
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

    /// ERC-6492 for an account without code: one `eth_call` without a `to` runs the validator's creation
    /// code, which calls the wrapper's factory (deploying the wallet inside the simulation only) and then
    /// the wallet's ERC-1271, and returns one word, 1 when valid. Nothing is sent, nothing changes on chain.
    async fn counterfactual_signature(
        &self,
        account: Wallet,
        hash: B256,
        signature: &[u8],
    ) -> Result<bool, ChainError> {
        let mut code = SIGNATURE_VALIDATOR_6492_CREATION_CODE.to_vec();
        code.extend((account.address(), hash, Bytes::copy_from_slice(signature)).abi_encode_params());
        let request = TransactionRequest::default().with_deploy_code(Bytes::from(code));
        let answer = within(READ_DEADLINE, async {
            self.provider.call(request).await.map_err(rpc_error)
        })
        .await;
        match answer {
            Ok(output) => Ok(output.as_ref() == B256::with_last_byte(1).as_slice()),
            Err(ChainError::Reverted(_)) => Ok(false),
            Err(error) => Err(error),
        }
    }
}
