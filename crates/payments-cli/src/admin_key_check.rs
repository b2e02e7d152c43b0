//! Whether the subscription key the CLI is configured with (`--key` / `PAYMENTS_KEY`) acts for the merchant
//! an admin session signed in as: shown by `payments admin login` and `payments admin me`, because the two
//! credentials are independent and a mismatch is silent otherwise (the split gets configured for the
//! signed-in wallet while orders made with the key still belong to the key's merchant, and answer
//! `split_required`).

use payments_core::Wallet;
use serde::Serialize;

use crate::connection::ConnectionArgs;
use crate::report::report;

/// The configured key, as the service sees it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct KeyCheck {
    /// Whether a key is configured at all.
    configured: bool,
    /// The merchant the key acts for, when the service told.
    wallet: Option<Wallet>,
    /// Whether that is the signed-in wallet.
    acts_for_this_merchant: Option<bool>,
    /// Why the key could not be checked (the error code and message), when it could not.
    error: Option<String>,
}

impl KeyCheck {
    /// Asks the service (`GET /api/status/ping`) which merchant the configured key acts for. Never fails:
    /// a key that cannot be checked is reported as such, the sign-in stands.
    pub(crate) async fn of(connection: &ConnectionArgs, signed_in: Wallet) -> KeyCheck {
        if connection.key.is_none() {
            return KeyCheck {
                configured: false,
                wallet: None,
                acts_for_this_merchant: None,
                error: None,
            };
        }
        let pinged = match connection.keyed_client() {
            Ok(client) => client.ping().await.map_err(anyhow::Error::new),
            Err(error) => Err(error),
        };
        match pinged {
            Ok(ping) => KeyCheck {
                configured: true,
                wallet: Some(ping.merchant),
                acts_for_this_merchant: Some(ping.merchant == signed_in),
                error: None,
            },
            Err(error) => {
                let report = report(&error);
                KeyCheck {
                    configured: true,
                    wallet: None,
                    acts_for_this_merchant: None,
                    error: Some(format!("{}: {}", report.code, report.message)),
                }
            }
        }
    }

    /// The table row's value.
    pub(crate) fn summary(&self, signed_in: Wallet) -> String {
        match (self.configured, self.wallet, &self.error) {
            (false, _, _) => "none (set PAYMENTS_KEY or pass --key to create orders and receipts)".to_owned(),
            (true, Some(wallet), _) if wallet == signed_in => {
                "acts for this merchant (PAYMENTS_KEY / --key)".to_owned()
            }
            (true, Some(wallet), _) => format!("acts for another merchant, {wallet} (PAYMENTS_KEY / --key)"),
            (true, None, error) => format!("not checked: {}", error.as_deref().unwrap_or("no answer")),
        }
    }

    /// A line after the table when the key and the session are for different merchants.
    pub(crate) fn warning(&self, signed_in: Wallet) -> Option<String> {
        let wallet = self.wallet.filter(|wallet| *wallet != signed_in)?;
        Some(format!(
            "note: admin commands (split deploy, refunds, terminal) act for {signed_in}, but orders and receipts \
             made with the configured key belong to {wallet}; sign in with {wallet}'s key, or use a key of \
             {signed_in} (`payments-server keys create --wallet {signed_in}`)\n"
        ))
    }
}
