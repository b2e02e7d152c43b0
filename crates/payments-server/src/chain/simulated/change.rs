//! `changePermission` and `revokeAsSpender` on the test-mode chain, as `contracts/src/SpendPermissionManager.sol`
//! does them: the platform's spender revokes a subscription's old permission and approves (and, for an
//! upgrade, charges) its replacement in one transaction, in one block, or changes nothing.

use alloy_primitives::B256;
use payments_core::{SpendPermission, Wallet};

use super::{PermissionRecord, check_fields, domain, reverted};
use crate::chain::ChainError;
use crate::chain::simulated::{SIMULATED_RELAYER, State};
use crate::chain::spend::{PermissionChange, SpendCharge};

impl State {
    /// The relayer's `changePermission`: every check first, then one block holding the charge (or no
    /// transfer at all when nothing is charged), the replacement's approval and the old permission's revoke.
    pub(in crate::chain::simulated) fn change_permission(
        &mut self,
        chain_id: u64,
        change: &PermissionChange,
    ) -> Result<B256, ChainError> {
        self.manager_code(change.manager)?;
        let relayer = SIMULATED_RELAYER.address();
        if change.old.spender != relayer || change.replacement.spender != relayer {
            return Err(reverted("only the permissions' spender may change them"));
        }
        if change.old.account != change.replacement.account {
            return Err(reverted("the replacement is another account's permission"));
        }
        let hash = if change.fee.base_units() == 0 && change.net.base_units() == 0 {
            self.approve_signed(chain_id, change)?
        } else {
            self.charge(
                chain_id,
                &SpendCharge {
                    manager: change.manager,
                    permission: change.replacement.clone(),
                    signature: change.signature.clone(),
                    merchant: change.merchant,
                    net: change.net,
                    fee_recipient: change.fee_recipient,
                    fee: change.fee,
                },
            )?
        };
        self.revoke_in_last_block(chain_id, change.manager, &change.old);
        Ok(hash)
    }

    /// The replacement approved with its signature (unless approved already), in a block of its own.
    fn approve_signed(&mut self, chain_id: u64, change: &PermissionChange) -> Result<B256, ChainError> {
        let key = (
            change.manager,
            change.replacement.signing_hash(&domain(chain_id, change.manager)),
        );
        let mut record: PermissionRecord = self.spend.permissions.get(&key).copied().unwrap_or_default();
        if record.revoked {
            return Err(reverted("the permission is revoked"));
        }
        if !record.approved {
            check_fields(&change.replacement)?;
            self.check_signature(chain_id, change.manager, &change.replacement, &change.signature)?;
            record.approved = true;
        }
        let hash = self.transact_at(self.next_timestamp(), &[])?;
        let mut journal = Vec::new();
        self.spend.set_permission(key, record, &mut journal);
        self.journal_last_block(journal);
        Ok(hash)
    }

    /// Marks `permission` revoked, journaled in the last block (the change's own).
    fn revoke_in_last_block(&mut self, chain_id: u64, manager: Wallet, permission: &SpendPermission) {
        let key = (manager, permission.signing_hash(&domain(chain_id, manager)));
        let mut record = self.spend.permissions.get(&key).copied().unwrap_or_default();
        record.revoked = true;
        let mut journal = Vec::new();
        self.spend.set_permission(key, record, &mut journal);
        self.journal_last_block(journal);
    }
}
