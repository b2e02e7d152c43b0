//! Test mode only: `POST /api/test/fund` gives a customer wallet tokens on the server's test-mode chain and
//! approves the spend permission manager for them, so its subscriptions can be charged. A server on a real
//! chain answers 404 (`not_found`).

use payments_core::{Cents, Wallet};
use serde::{Deserialize, Serialize};

use crate::client::{Auth, Client};
use crate::error::Error;

/// What a test-mode funding did.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TestFunding {
    /// The funded wallet.
    pub wallet: Wallet,
    /// The amount minted, in token base units (6 decimals), as decimal text.
    pub funded_base_units: String,
    /// The wallet's token balance after the funding, in base units, as decimal text.
    pub balance_base_units: String,
    /// The test-mode chain's transaction.
    pub transaction_hash: String,
}

#[derive(Debug, Serialize)]
struct FundBody {
    wallet: Wallet,
    usd: Cents,
}

impl Client {
    /// `POST /api/test/fund` (test mode, scope `subscriptions:write`): mints `usd` of the payment token to
    /// `wallet` on the test-mode chain and approves the spend permission manager to pull it.
    ///
    /// # Errors
    /// [`Error::Api`]: `not_found` (404) on a server with a real chain, `invalid_input` for an amount out of
    /// range, `unauthorized` / `forbidden` for the key; or a transport error.
    pub async fn fund_test_wallet(&self, wallet: Wallet, usd: Cents) -> Result<TestFunding, Error> {
        let request = self
            .http()
            .post(self.url("api/test/fund")?)
            .json(&FundBody { wallet, usd });
        self.send_json(self.authorize(request, Auth::Subscription)).await
    }
}
