//! Who asks for a receipt change: its [`Authority`] decides what it may do, its identity goes in the history.

use payments_core::{Authority, Wallet};

use crate::api_key::SubscriptionId;

/// The caller behind a status change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Actor {
    /// The buyer, anonymously, by a button on the payment page.
    Portal,
    /// A merchant's subscription key.
    Key(SubscriptionId),
    /// A signed-in admin (merchant or platform admin).
    Admin(Wallet),
    /// The server's chain workers, acting on a confirmed transfer or a mined settlement.
    Chain,
    /// The server's own clock closing an unpaid receipt's payment window. It holds the chain's authority:
    /// neither a key nor the buyer's page may reopen what it expired (a late payment, the chain's word, may).
    PaymentWindow,
}

impl Actor {
    pub const fn authority(&self) -> Authority {
        match self {
            Actor::Portal => Authority::Buyer,
            Actor::Key(_) => Authority::MerchantKey,
            Actor::Admin(_) => Authority::Admin,
            Actor::Chain | Actor::PaymentWindow => Authority::Chain,
        }
    }

    /// The history row's actor: `portal`, `key:<subscription id>`, `admin:<wallet>`, `chain`, `payment_window`.
    pub fn history_label(&self) -> String {
        match self {
            Actor::Portal => "portal".to_owned(),
            Actor::Key(id) => format!("key:{}", id.as_str()),
            Actor::Admin(wallet) => format!("admin:{wallet}"),
            Actor::Chain => "chain".to_owned(),
            Actor::PaymentWindow => "payment_window".to_owned(),
        }
    }
}
