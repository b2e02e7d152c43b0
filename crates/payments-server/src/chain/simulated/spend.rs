//! The spend permission manager and ERC-20 allowances on the test-mode chain, with the arithmetic of
//! `contracts/src/SpendPermissionManager.sol`: a permission is approved once (by its account's EIP-712
//! signature), each charge adds to the current period's spend and may not take it past the allowance, the
//! current period is `start + k × period` containing now (its end capped at the permission's end), and a
//! revoked permission charges nothing more. A charge is one transaction in one block: `fee` to the fee
//! recipient, then `net` to the merchant, pulled from the account with the manager's token allowance.
//!
//! Every state change is journaled in its block, so [`SimulatedChain::revert`] undoes it with the transfers.

use alloy_primitives::{Address, B256, U256};
use payments_core::{RecoverableSignature, SpendPermission, SpendPermissionDomain, TokenAmount, Wallet};

use crate::chain::ChainError;
use crate::chain::simulated::{SIMULATED_RELAYER, State};
use crate::chain::spend::{PermissionPeriod, SpendCharge};

/// The manager's record of one permission (by manager and permission hash).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct PermissionRecord {
    approved: bool,
    revoked: bool,
    /// The period last charged, as the contract stores it (`_lastUpdatedPeriod`).
    last: Option<PeriodSpend>,
}

/// One period's bounds (Unix seconds, end exclusive) and what was spent in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PeriodSpend {
    start: u64,
    end: u64,
    spend: U256,
}

/// A key of the ERC-20 allowance table: (token, owner, spender).
type AllowanceKey = (Wallet, Wallet, Wallet);
/// A key of the manager's permission table: (manager, permission hash).
type PermissionKey = (Wallet, B256);

/// What a block changed besides balances, with the value before, so a reorganisation can restore it.
#[cfg_attr(
    not(any(test, feature = "testing")),
    expect(dead_code, reason = "only tests reorganise the test-mode chain")
)]
#[derive(Debug, Clone)]
pub(super) enum Undo {
    Allowance {
        key: AllowanceKey,
        previous: Option<U256>,
    },
    Permission {
        key: PermissionKey,
        previous: Option<PermissionRecord>,
    },
}

/// The spend state of the chain: token allowances and the managers' permission records.
#[derive(Debug, Default)]
pub(super) struct SpendState {
    allowances: std::collections::HashMap<AllowanceKey, U256>,
    permissions: std::collections::HashMap<PermissionKey, PermissionRecord>,
}

impl SpendState {
    #[cfg(any(test, feature = "testing"))]
    pub(super) fn undo(&mut self, undo: &Undo) {
        match undo {
            Undo::Allowance { key, previous } => match previous {
                Some(value) => {
                    self.allowances.insert(*key, *value);
                }
                None => {
                    self.allowances.remove(key);
                }
            },
            Undo::Permission { key, previous } => match previous {
                Some(record) => {
                    self.permissions.insert(*key, *record);
                }
                None => {
                    self.permissions.remove(key);
                }
            },
        }
    }

    fn set_allowance(&mut self, key: AllowanceKey, value: U256, journal: &mut Vec<Undo>) {
        let previous = self.allowances.insert(key, value);
        journal.push(Undo::Allowance { key, previous });
    }

    fn set_permission(&mut self, key: PermissionKey, record: PermissionRecord, journal: &mut Vec<Undo>) {
        let previous = self.permissions.insert(key, record);
        journal.push(Undo::Permission { key, previous });
    }
}

fn reverted(reason: &str) -> ChainError {
    ChainError::Reverted(format!("the spend permission manager refused: {reason}"))
}

/// The signing domain of permissions for `manager` on `chain_id`; its signing hash is the permission's id.
fn domain(chain_id: u64, manager: Wallet) -> SpendPermissionDomain {
    SpendPermissionDomain {
        chain_id,
        verifying_contract: manager.address(),
    }
}

/// The period containing `now`, as `getCurrentPeriod` computes it: the stored period while `now` is inside
/// it, else `start + k × period` with nothing spent. Reverts before `start` and from `end` on.
fn current_period(
    permission: &SpendPermission,
    last: Option<PeriodSpend>,
    now: u64,
) -> Result<PeriodSpend, ChainError> {
    let (start, end, period) = (
        permission.start_secs(),
        permission.end_secs(),
        permission.period_secs(),
    );
    if now < start {
        return Err(reverted("the permission has not started"));
    }
    if now >= end {
        return Err(reverted("the permission has ended"));
    }
    if let Some(last) = last.filter(|last| last.start <= now && now < last.end) {
        return Ok(last);
    }
    if period == 0 {
        return Err(reverted("the permission's period is zero"));
    }
    let current = start + (now - start) / period * period;
    Ok(PeriodSpend {
        start: current,
        end: current.saturating_add(period).min(end),
        spend: U256::ZERO,
    })
}

/// The checks `approve` makes of a permission's own fields (the contract's `_validate`).
fn check_fields(permission: &SpendPermission) -> Result<(), ChainError> {
    if permission.token == Address::ZERO {
        return Err(reverted("the token is the zero address"));
    }
    if permission.start_secs() >= permission.end_secs() {
        return Err(reverted("start is not before end"));
    }
    if permission.period_secs() == 0 {
        return Err(reverted("the period is zero"));
    }
    if permission.allowance.is_zero() {
        return Err(reverted("the allowance is zero"));
    }
    Ok(())
}

impl State {
    fn manager_code(&self, manager: Wallet) -> Result<(), ChainError> {
        if self.contracts.contains(&manager) {
            Ok(())
        } else {
            Err(ChainError::Reverted(format!(
                "no spend permission manager is deployed at {manager}"
            )))
        }
    }

    /// `getCurrentPeriod` and `isRevoked` of `permission` at the next block's time.
    pub(super) fn permission_period(
        &self,
        chain_id: u64,
        manager: Wallet,
        permission: &SpendPermission,
    ) -> Result<PermissionPeriod, ChainError> {
        self.manager_code(manager)?;
        let hash = permission.signing_hash(&domain(chain_id, manager));
        let record = self
            .spend
            .permissions
            .get(&(manager, hash))
            .copied()
            .unwrap_or_default();
        let period = current_period(permission, record.last, self.next_timestamp())?;
        Ok(PermissionPeriod {
            start: period.start,
            end: period.end,
            spent: TokenAmount::from_base_units(u128::try_from(period.spend).unwrap_or(u128::MAX)),
            revoked: record.revoked,
        })
    }

    /// The relayer's `charge`: approve with the signature when needed, spend `fee + net` within the
    /// current period's allowance, pay both parts; all in one block or nothing.
    pub(super) fn charge(&mut self, chain_id: u64, charge: &SpendCharge) -> Result<B256, ChainError> {
        let manager = charge.manager;
        let permission = &charge.permission;
        self.manager_code(manager)?;
        // The test-mode chain's relayer sends every transaction; the contract lets only the spender charge.
        if permission.spender != SIMULATED_RELAYER.address() {
            return Err(reverted("only the permission's spender may charge it"));
        }
        let key = (manager, permission.signing_hash(&domain(chain_id, manager)));
        let mut record = self.spend.permissions.get(&key).copied().unwrap_or_default();
        if record.revoked {
            return Err(reverted("the permission is revoked"));
        }
        if !record.approved {
            check_fields(permission)?;
            self.check_signature(chain_id, manager, permission, &charge.signature)?;
            record.approved = true;
        }
        let (fee, net) = (charge.fee.base_units(), charge.net.base_units());
        let value = U256::from(fee) + U256::from(net);
        if value.is_zero() {
            return Err(reverted("nothing to spend"));
        }
        let now = self.next_timestamp();
        let mut period = current_period(permission, record.last, now)?;
        period.spend += value;
        if period.spend > U256::from(permission.allowance) {
            return Err(reverted("the charge exceeds the period's allowance"));
        }
        let token = Wallet::from_address(permission.token);
        let account = Wallet::from_address(permission.account);
        let allowance_key = (token, account, manager);
        let allowed = self
            .spend
            .allowances
            .get(&allowance_key)
            .copied()
            .unwrap_or(U256::ZERO);
        if allowed < value {
            return Err(ChainError::Reverted(format!(
                "{account} allows the manager {allowed} of the token, not {value}"
            )));
        }
        let moves: Vec<_> = [(charge.fee_recipient, fee), (charge.merchant, net)]
            .into_iter()
            .filter(|(_, amount)| *amount > 0)
            .map(|(to, amount)| (token, account, to, amount))
            .collect();
        // The balances move first: when the account cannot pay, nothing else changes.
        let hash = self.transact_at(now, &moves)?;
        let mut journal = Vec::new();
        // An allowance of 2^256 - 1 is unlimited, as in TestToken (and most tokens).
        if allowed != U256::MAX {
            self.spend
                .set_allowance(allowance_key, allowed - value, &mut journal);
        }
        record.last = Some(period);
        self.spend.set_permission(key, record, &mut journal);
        self.journal_last_block(journal);
        Ok(hash)
    }

    /// `approveWithSignature`'s check: an EOA's EIP-712 signature (the test-mode chain has no contract
    /// accounts that could answer ERC-1271).
    fn check_signature(
        &self,
        chain_id: u64,
        manager: Wallet,
        permission: &SpendPermission,
        signature: &[u8],
    ) -> Result<(), ChainError> {
        if self.contracts.contains(&Wallet::from_address(permission.account)) {
            return Err(reverted("the account's contract did not accept the signature"));
        }
        let signature = RecoverableSignature::from_bytes(signature)
            .map_err(|error| reverted(&format!("invalid signature: {error}")))?;
        permission
            .verify(&signature, &domain(chain_id, manager))
            .map_err(|_| reverted("the signature is not the account's"))
    }

    /// The customer's unlimited `token.approve(manager, max)` that test-mode funding gives with the tokens (a
    /// funded test wallet is one that can pay its subscriptions); journaled in the funding's block.
    pub(super) fn approve_for_funding(&mut self, token: Wallet, owner: Wallet, manager: Wallet) {
        let mut journal = Vec::new();
        self.spend
            .set_allowance((token, owner, manager), U256::MAX, &mut journal);
        self.journal_last_block(journal);
    }

    /// `token.approve(spender, amount)` sent by `owner`, in a block of its own.
    #[cfg(any(test, feature = "testing"))]
    fn approve(&mut self, token: Wallet, owner: Wallet, spender: Wallet, amount: U256) -> B256 {
        let now = self.next_timestamp();
        // A transaction without transfers cannot fail.
        let hash = self.transact_at(now, &[]).unwrap_or_default();
        let mut journal = Vec::new();
        self.spend
            .set_allowance((token, owner, spender), amount, &mut journal);
        self.journal_last_block(journal);
        hash
    }

    /// `manager.revoke(permission)` sent by the permission's account, in a block of its own.
    #[cfg(any(test, feature = "testing"))]
    fn revoke(
        &mut self,
        chain_id: u64,
        manager: Wallet,
        permission: &SpendPermission,
    ) -> Result<B256, ChainError> {
        self.manager_code(manager)?;
        let key = (manager, permission.signing_hash(&domain(chain_id, manager)));
        let mut record = self.spend.permissions.get(&key).copied().unwrap_or_default();
        record.revoked = true;
        let hash = self.transact_at(self.next_timestamp(), &[])?;
        let mut journal = Vec::new();
        self.spend.set_permission(key, record, &mut journal);
        self.journal_last_block(journal);
        Ok(hash)
    }

    /// `token.allowance(owner, spender)` (zero when never approved).
    pub(super) fn allowance(&self, token: Wallet, owner: Wallet, spender: Wallet) -> U256 {
        self.spend
            .allowances
            .get(&(token, owner, spender))
            .copied()
            .unwrap_or(U256::ZERO)
    }
}

/// What a test does on the test-mode chain as a customer would with a wallet: get tokens, approve the
/// manager on the token, revoke a permission.
#[cfg(any(test, feature = "testing"))]
impl super::SimulatedChain {
    /// Mints `amount` base units of `token` to `to` (the test token's public `mint`).
    pub(crate) fn mint(&self, token: Wallet, to: Wallet, amount: u128) -> B256 {
        let mint = Wallet::from_address(Address::ZERO);
        let mut state = self.lock();
        let now = state.next_timestamp();
        // Minting from the zero address checks no balance, so it cannot fail.
        state
            .transact_at(now, &[(token, mint, to, amount)])
            .unwrap_or_default()
    }

    /// `owner` calls `token.approve(spender, amount)`.
    pub(crate) fn approve(&self, token: Wallet, owner: Wallet, spender: Wallet, amount: U256) -> B256 {
        self.lock().approve(token, owner, spender, amount)
    }

    /// `token.allowance(owner, spender)`.
    pub(crate) fn allowance(&self, token: Wallet, owner: Wallet, spender: Wallet) -> U256 {
        self.lock().allowance(token, owner, spender)
    }

    /// The permission's account calls `manager.revoke(permission)`.
    pub(crate) fn revoke_permission(
        &self,
        manager: Wallet,
        permission: &SpendPermission,
    ) -> Result<B256, ChainError> {
        let chain_id = self.chain_id;
        self.lock().revoke(chain_id, manager, permission)
    }
}

#[path = "change.rs"]
mod change;

#[cfg(test)]
#[path = "spend_tests.rs"]
mod tests;
