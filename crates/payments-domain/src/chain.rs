//! Where the platform's contracts live on the configured chain (`--chain-contracts FILE`, the JSON object that
//! `chain bootstrap` prints), and the development default.

use payments_core::Wallet;
use serde::{Deserialize, Serialize};

/// The factories (and token) the server derives split and deposit addresses with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChainContracts {
    /// The chain they are deployed on.
    pub chain_id: u64,
    /// The payment token (a 6-decimal USD stablecoin; the test token in development).
    pub token: Wallet,
    /// `SplitFactory`: a merchant's split lives at its CREATE2 address for the split's recipients.
    pub split_factory: Wallet,
    /// `DepositFactory`: a receipt's deposit address is its CREATE2 address for (receipt, split, token).
    pub deposit_factory: Wallet,
    /// `SpendPermissionManager`: the verifying contract of subscription spend permissions and the contract
    /// that charges them. Absent from files written before subscriptions existed: subscriptions are then off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spend_permission_manager: Option<Wallet>,
}

impl ChainContracts {
    /// Development mode without `--chain-contracts`: the addresses a fresh anvil gives contracts deployed by its
    /// first default account (nonces 0, 1, 2 and 3: split factory, deposit factory, test token, spend
    /// permission manager), the order in which `chain bootstrap --with-test-token` deploys them. A local anvil then needs no configuration file.
    pub const DEVELOPMENT: ChainContracts = ChainContracts {
        chain_id: 31_337,
        split_factory: Wallet::from_address(alloy_primitives::address!(
            "5FbDB2315678afecb367f032d93F642f64180aa3"
        )),
        deposit_factory: Wallet::from_address(alloy_primitives::address!(
            "e7f1725E7734CE288F8367e1Bb143E90bb3F0512"
        )),
        token: Wallet::from_address(alloy_primitives::address!(
            "9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0"
        )),
        spend_permission_manager: Some(Wallet::from_address(alloy_primitives::address!(
            "Cf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9"
        ))),
    };

    /// Reads the JSON object of `chain bootstrap` (unknown fields, such as further addresses, are ignored).
    ///
    /// # Errors
    /// When the text is not such an object or an address is malformed.
    pub fn from_json(text: &str) -> Result<ChainContracts, serde_json::Error> {
        serde_json::from_str(text)
    }
}

/// The chain and token a server takes payments in: what a receipt's `payment` instruction names besides its
/// address and amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PaymentChain {
    pub chain_id: u64,
    pub token: Wallet,
}
