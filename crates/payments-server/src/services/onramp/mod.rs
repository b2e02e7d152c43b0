//! The card path: the payment page's "Pay with card" creates a provider's onramp session that buys exactly the
//! amount due, in the server's token, delivered to the receipt's own deposit address on the server's chain.
//! The receipt records the session (`onrampSessionId` in its webhooks); the deposit watcher pays the receipt
//! when the tokens arrive, like any transfer. A failed session creation changes nothing on the receipt: the
//! page is told why (docs/payment-page.md).

mod coinbase;
mod provider;
mod stripe;

use std::net::IpAddr;
use std::sync::Arc;

use payments_core::{OnrampFailure, OnrampProviderKind, ReceiptStatus};
use url::Url;

use crate::domain::chain::PaymentChain;
use crate::domain::receipt::{OnrampSession, Receipt, ReceiptId};
use crate::runtime::clock::Clock;
use crate::runtime::onramp::{OnrampConfig, OnrampCredentials};
use crate::store::{Receipts, StoreError};

use provider::{OnrampOrder, OnrampProvider};

/// The token's symbol as providers name it.
const TOKEN_SYMBOL: &str = "USDC";

/// Starts card purchases for receipts.
#[derive(Debug, Clone)]
pub(crate) struct OnrampService {
    pub(crate) receipts: Arc<Receipts>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) provider: Arc<dyn OnrampProvider>,
    /// The provider's name of the server's chain (checked when the server starts).
    pub(crate) network: &'static str,
    /// The public base URL: the payment page is where the buyer returns when the receipt names nowhere else.
    pub(crate) base_url: Url,
}

/// The session the buyer is sent to.
#[derive(Debug, Clone)]
pub(crate) struct CardCheckout {
    pub(crate) session: OnrampSession,
    /// The receipt's open session was handed out again instead of creating another.
    pub(crate) reused: bool,
}

/// Why no session was started.
#[derive(Debug)]
pub(crate) enum OnrampError {
    /// No such receipt.
    NotFound,
    /// The receipt cannot be paid now (paid, being confirmed, expired, or without a deposit address).
    NotPayable(&'static str),
    /// The provider refused or did not answer: the category and code for the page, and what it said.
    Provider {
        provider: OnrampProviderKind,
        failure: OnrampFailure,
        detail: String,
    },
    Store(StoreError),
}

impl From<StoreError> for OnrampError {
    fn from(error: StoreError) -> Self {
        OnrampError::Store(error)
    }
}

impl OnrampService {
    /// The service for `config` on `chain`; `Err` when the provider delivers nothing there or its HTTP client
    /// cannot start.
    ///
    /// # Errors
    /// A message for the operator.
    pub(crate) fn new(
        config: &OnrampConfig,
        chain: PaymentChain,
        base_url: Url,
        receipts: Arc<Receipts>,
        clock: Arc<dyn Clock>,
    ) -> Result<OnrampService, String> {
        let network = config.network_for(chain.chain_id)?;
        let client = reqwest::Client::builder()
            .timeout(config.timeout)
            .connect_timeout(config.timeout)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|error| format!("starting the onramp HTTP client: {error}"))?;
        let api_url = config.api_url.clone();
        let provider: Arc<dyn OnrampProvider> = match &config.credentials {
            OnrampCredentials::Stripe { secret_key } => Arc::new(stripe::StripeOnramp {
                client,
                api_url,
                secret_key: secret_key.clone(),
            }),
            OnrampCredentials::Coinbase { key_id, signing_key } => Arc::new(coinbase::CoinbaseOnramp {
                client,
                api_url,
                key_id: key_id.clone(),
                signing_key: signing_key.clone(),
            }),
        };
        Ok(OnrampService {
            receipts,
            clock,
            provider,
            network,
            base_url,
        })
    }

    /// Which provider the page offers.
    pub(crate) fn provider(&self) -> OnrampProviderKind {
        self.provider.kind()
    }

    /// A card session for receipt `id` of `merchant` (the payment link's `merchant`): the open one when the
    /// provider allows handing it out again, else a new one recorded on the receipt.
    ///
    /// # Errors
    /// See [`OnrampError`]; nothing is written unless a session was created.
    pub(crate) async fn start(
        &self,
        merchant: Option<payments_core::Wallet>,
        id: ReceiptId,
        client_ip: Option<IpAddr>,
    ) -> Result<CardCheckout, OnrampError> {
        let Some(receipt) = self.receipts.fetch(merchant, &id).await? else {
            return Err(OnrampError::NotFound);
        };
        let now = self.clock.now_ms();
        let address = payable_address(&receipt, now)?;
        let kind = self.provider.kind();
        if let Some(open) = receipt.onramp.as_ref()
            && open.provider == kind
            && kind.reuses(now - open.created_at)
        {
            return Ok(CardCheckout {
                session: open.clone(),
                reused: true,
            });
        }
        let amount = receipt
            .amounts
            .total
            .to_token_amount()
            .map_err(|_| OnrampError::NotPayable("its amount cannot be paid in the token"))?;
        let order = OnrampOrder {
            receipt_id: receipt.id.as_str().to_owned(),
            amount,
            token_symbol: TOKEN_SYMBOL,
            network: self.network,
            address,
            redirect_url: self.return_url(&receipt),
            client_ip,
        };
        let minted = self
            .provider
            .create_session(&order)
            .await
            .map_err(|error| OnrampError::Provider {
                provider: kind,
                failure: error.failure(),
                detail: error.to_string(),
            })?;
        let session = OnrampSession {
            provider: kind,
            session_id: minted.id,
            url: minted.url,
            created_at: now,
        };
        if !self
            .receipts
            .record_onramp_session(receipt.wallet, &id, &session)
            .await?
        {
            return Err(OnrampError::NotPayable("it was paid meanwhile"));
        }
        Ok(CardCheckout {
            session,
            reused: false,
        })
    }

    /// Where the provider sends the buyer after paying: the receipt's onramp redirect, else its redirect
    /// (both HTTPS only), else back to its payment page, which shows "Paid" once the tokens arrive.
    fn return_url(&self, receipt: &Receipt) -> Option<String> {
        let https = |url: &Option<String>| {
            url.as_ref()
                .filter(|url| url.to_ascii_lowercase().starts_with("https://"))
                .cloned()
        };
        https(&receipt.options.onramp_redirect_url)
            .or_else(|| https(&receipt.options.redirect_url))
            .or_else(|| {
                let base = self.base_url.as_str().trim_end_matches('/');
                Some(format!(
                    "{base}/portal/{}?merchant={}",
                    receipt.id.as_str(),
                    receipt.wallet
                ))
            })
    }
}

/// The receipt's deposit address, if a card purchase may pay it now.
fn payable_address(receipt: &Receipt, now_ms: i64) -> Result<payments_core::Wallet, OnrampError> {
    if receipt.paid != payments_core::Cents::ZERO || receipt.status.is_settled() {
        return Err(OnrampError::NotPayable("it is already paid"));
    }
    if matches!(
        receipt.status,
        ReceiptStatus::CheckoutSuccess | ReceiptStatus::TxMined | ReceiptStatus::RecipientValidated
    ) {
        return Err(OnrampError::NotPayable(
            "a payment for it is already being confirmed",
        ));
    }
    if receipt.expired || receipt.window_ended(now_ms) {
        return Err(OnrampError::NotPayable("its payment window has ended"));
    }
    receipt
        .payment
        .map(|target| target.to)
        .ok_or(OnrampError::NotPayable(
            "it has no deposit address of its own for the purchased tokens to arrive at",
        ))
}
