//! Many subscription charges in one `chargeBatch` transaction of the spend permission manager: each charge
//! succeeds or fails on its own, and its outcome is read from the receipt's `BatchCharged` /
//! `BatchChargeFailed` events by its position in the batch.

use alloy::network::TransactionBuilder;
use alloy::primitives::{Bytes, U256};
use alloy::sol_types::SolInterface;

use crate::chain::ChainError;
use crate::chain::bindings::ISpendPermissionManager::{
    self, BatchChargeFailed, BatchCharged, Charge, ISpendPermissionManagerErrors as ManagerError,
};
use crate::chain::rpc::RpcChain;
use crate::chain::rpc::spend::abi_permission;
use crate::chain::spend::{BatchChargeOutcome, SpendCharge};

impl RpcChain {
    /// `manager.chargeBatch(charges, feeRecipient)` from the relayer: one outcome per charge, in order.
    pub(super) async fn send_charge_batch(
        &self,
        charges: &[SpendCharge],
    ) -> Result<Vec<BatchChargeOutcome>, ChainError> {
        self.writer()?;
        let Some(first) = charges.first() else {
            return Ok(Vec::new());
        };
        let manager = ISpendPermissionManager::new(first.manager.address(), &self.provider);
        let items = charges
            .iter()
            .map(|charge| Charge {
                permission: abi_permission(&charge.permission),
                signature: Bytes::copy_from_slice(&charge.signature),
                fee: U256::from(charge.fee.base_units()),
                net: U256::from(charge.net.base_units()),
                merchant: charge.merchant.address(),
            })
            .collect();
        let request = manager
            .chargeBatch(items, first.fee_recipient.address())
            .into_transaction_request()
            .with_gas_limit(batch_gas_limit(charges.len()));
        let receipt = match self.submit(request).await {
            Ok(receipt) => receipt,
            Err(ChainError::Unavailable(reason)) => {
                return Ok(vec![BatchChargeOutcome::Unknown { reason }; charges.len()]);
            }
            Err(error) => return Err(error),
        };
        let tx_hash = receipt.transaction_hash;
        if !receipt.status() {
            return Err(ChainError::Reverted(format!(
                "batch transaction {tx_hash} reverted"
            )));
        }
        let mut outcomes = vec![
            BatchChargeOutcome::Unknown {
                reason: format!("batch transaction {tx_hash} reported nothing for this charge"),
            };
            charges.len()
        ];
        let manager_address = first.manager.address();
        for log in receipt.inner.logs() {
            if log.address() != manager_address {
                continue;
            }
            let (index, outcome) = if let Ok(event) = log.log_decode::<BatchCharged>() {
                (event.inner.data.index, BatchChargeOutcome::Charged { tx_hash })
            } else if let Ok(event) = log.log_decode::<BatchChargeFailed>() {
                let reason = describe_revert(&event.inner.data.reason);
                (event.inner.data.index, BatchChargeOutcome::Failed { reason })
            } else {
                continue;
            };
            if let Some(slot) = usize::try_from(index)
                .ok()
                .and_then(|index| outcomes.get_mut(index))
            {
                *slot = outcome;
            }
        }
        Ok(outcomes)
    }
}

/// The contract gives each charge at most `CHARGE_GAS` (300k) and requires 20k more before each; with the
/// call's own cost and the charge's calldata, 350k per charge and 100k for the transaction always suffice
/// (a first charge uses about 130k). Gas is paid for what is used, not for the limit; 50 charges stay at
/// 17.6M, within a 30M block.
fn batch_gas_limit(charges: usize) -> u64 {
    let charges = u64::try_from(charges).unwrap_or(u64::MAX);
    charges.saturating_mul(350_000).saturating_add(100_000)
}

/// A failed charge's revert data, in words: the manager's (and its token transfer's) custom errors by name.
pub(crate) fn describe_revert(reason: &[u8]) -> String {
    let Ok(error) = ManagerError::abi_decode(reason) else {
        return if reason.is_empty() {
            "the charge ran out of its gas budget or reverted without a reason".to_owned()
        } else {
            format!("the charge reverted (0x{})", hex::encode(reason))
        };
    };
    match error {
        ManagerError::TransferFailed(_) => {
            "the token transfer failed (customer balance or token allowance too low)".to_owned()
        }
        ManagerError::ExceededAllowance(error) => format!(
            "the period's allowance is exceeded ({} of {} base units)",
            error.total, error.allowance
        ),
        ManagerError::Revoked(_) => "the spend permission is revoked".to_owned(),
        ManagerError::InvalidSignature(_) => "the permission's signature is not valid".to_owned(),
        ManagerError::NotApproved(_) => "the spend permission is not approved".to_owned(),
        ManagerError::BeforeStart(_) => "the spend permission has not started".to_owned(),
        ManagerError::AfterEnd(_) => "the spend permission has ended".to_owned(),
        ManagerError::InvalidSender(_) => "the relayer is not the permission's spender".to_owned(),
        ManagerError::ZeroValue(_) => "the charge amount is zero".to_owned(),
        ManagerError::BatchOutOfGas(_) => "the batch ran out of gas".to_owned(),
        ManagerError::AccountMismatch(_) => "the replacement permission is another account's".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use alloy::sol_types::SolError;

    use super::describe_revert;
    use crate::chain::bindings::ISpendPermissionManager::{ExceededAllowance, TransferFailed};

    #[test]
    fn a_failed_charge_is_described_by_the_contract_error_it_reverted_with() {
        let transfer = TransferFailed {
            token: Default::default(),
            to: Default::default(),
            amount: alloy::primitives::U256::from(5),
        }
        .abi_encode();
        let allowance = ExceededAllowance {
            total: alloy::primitives::U256::from(20),
            allowance: alloy::primitives::aliases::U160::from(10),
        }
        .abi_encode();

        assert!(describe_revert(&transfer).contains("token transfer failed"));
        assert!(describe_revert(&allowance).contains("20 of 10"));
        assert!(describe_revert(&[]).contains("gas budget"));
        assert!(describe_revert(&[1, 2, 3, 4]).contains("0x01020304"));
    }
}
