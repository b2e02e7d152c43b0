//! Subscription charges through the server's own chain (the test-mode one or a node such as anvil), so one
//! test scenario runs on both: sign a permission, charge it as the relayer, read the manager's period.
//!
//! ```text
//! let spend = app.spend();
//! let signature = sign_permission(CUSTOMER_KEY, &permission, &spend.domain());
//! spend.charge(&TestCharge { permission, signature, .. }).await?;
//! ```

use std::sync::Arc;

use alloy_primitives::B256;
use k256::ecdsa::SigningKey;
use payments_core::{SpendPermission, SpendPermissionDomain, TokenAmount, Wallet};

use crate::chain::Chain;
use crate::chain::spend::SpendCharge;
use crate::testing::TestApp;

/// The server's chain, seen as the spend permission manager's relayer.
#[derive(Debug, Clone)]
pub struct TestSpend {
    chain: Arc<dyn Chain>,
    chain_id: u64,
    token: Wallet,
    manager: Wallet,
}

/// One charge as the relayer sends it: `fee` to `fee_recipient` and `net` to `merchant`, pulled from the
/// permission's account (base units of the payment token).
#[derive(Debug, Clone)]
pub struct TestCharge {
    /// The permission the customer signed.
    pub permission: SpendPermission,
    /// The customer's 65-byte signature over it.
    pub signature: Vec<u8>,
    /// Where `net` goes.
    pub merchant: Wallet,
    /// The merchant's part.
    pub net: u128,
    /// Where `fee` goes.
    pub fee_recipient: Wallet,
    /// The platform's part.
    pub fee: u128,
}

/// The manager's current period of a permission.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TestPeriod {
    /// Unix seconds, inclusive.
    pub start: u64,
    /// Unix seconds, exclusive.
    pub end: u64,
    /// Base units spent in it.
    pub spent: u128,
    /// Whether the account revoked the permission.
    pub revoked: bool,
}

impl TestApp {
    /// The server's chain as the subscription relayer sees it. Panics without a spend permission manager.
    pub fn spend(&self) -> TestSpend {
        let config = self.app.config();
        let manager = config
            .effective_chain_contracts()
            .and_then(|contracts| contracts.spend_permission_manager)
            .unwrap_or_else(|| panic!("this test server has no spend permission manager"));
        TestSpend {
            chain: Arc::clone(&self.app.state().services.chain),
            chain_id: config.chain_id,
            token: config.token_address,
            manager,
        }
    }
}

impl TestSpend {
    /// The platform's spender (the relayer's address).
    pub fn relayer(&self) -> Wallet {
        self.chain
            .relayer()
            .unwrap_or_else(|| panic!("this test server has no relayer"))
    }

    /// The spend permission manager.
    pub fn manager(&self) -> Wallet {
        self.manager
    }

    /// The payment token.
    pub fn token(&self) -> Wallet {
        self.token
    }

    /// The domain permissions for this manager are signed under.
    pub fn domain(&self) -> SpendPermissionDomain {
        SpendPermissionDomain {
            chain_id: self.chain_id,
            verifying_contract: self.manager.address(),
        }
    }

    /// The relayer charges in one transaction; the transaction hash, or the chain's refusal as text.
    pub async fn charge(&self, charge: &TestCharge) -> Result<String, String> {
        let charge = SpendCharge {
            manager: self.manager,
            permission: charge.permission.clone(),
            signature: charge.signature.clone(),
            merchant: charge.merchant,
            net: TokenAmount::from_base_units(charge.net),
            fee_recipient: charge.fee_recipient,
            fee: TokenAmount::from_base_units(charge.fee),
        };
        self.chain
            .charge_subscription(&charge)
            .await
            .map(|hash| hash.to_string())
            .map_err(|error| error.to_string())
    }

    /// The manager's current period of `permission`, or the chain's refusal as text.
    pub async fn period(&self, permission: &SpendPermission) -> Result<TestPeriod, String> {
        self.chain
            .permission_period(self.manager, permission)
            .await
            .map(|period| TestPeriod {
                start: period.start,
                end: period.end,
                spent: period.spent.base_units(),
                revoked: period.revoked,
            })
            .map_err(|error| error.to_string())
    }

    /// ERC-1271: whether the contract `account` accepts `signature` over `hash`.
    pub async fn is_valid_contract_signature(
        &self,
        account: Wallet,
        hash: B256,
        signature: &[u8],
    ) -> Result<bool, String> {
        self.chain
            .is_valid_contract_signature(account, hash, signature)
            .await
            .map_err(|error| error.to_string())
    }

    /// The payment token balance of `owner`, in base units.
    pub async fn balance(&self, owner: Wallet) -> u128 {
        self.chain
            .token_balance(self.token, owner)
            .await
            .unwrap_or_else(|error| panic!("reading a balance: {error}"))
            .base_units()
    }
}

/// The 65-byte `r || s || v` (v = 27/28, low s) EIP-712 signature of `permission` under `domain` by
/// `private_key`, as a wallet's `eth_signTypedData_v4` gives it.
pub fn sign_permission(
    private_key: [u8; 32],
    permission: &SpendPermission,
    domain: &SpendPermissionDomain,
) -> Vec<u8> {
    sign_hash(private_key, permission.signing_hash(domain))
}

/// The 65-byte `r || s || v` (v = 27/28, low s) signature of a 32-byte `hash` by `private_key`.
pub fn sign_hash(private_key: [u8; 32], hash: B256) -> Vec<u8> {
    let key =
        SigningKey::from_slice(&private_key).unwrap_or_else(|error| panic!("invalid private key: {error}"));
    let (signature, recovery) = key
        .sign_prehash_recoverable(hash.as_slice())
        .unwrap_or_else(|error| panic!("signing: {error}"));
    let mut bytes = signature.to_bytes().to_vec();
    bytes.push(27 + recovery.to_byte());
    bytes
}
