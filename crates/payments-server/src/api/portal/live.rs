//! The page's status as its script polls it (`GET /portal/{id}/status`): small, and derived from the same view
//! the HTML is, so the live page and a reloaded one say the same thing.

use serde::Serialize;

use super::view::{PortalView, Stage, settled_message, status_label};

/// What the payment page's script shows without a reload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct LiveStatus {
    /// The receipt's status (`paid`, `checkout_success`, ...).
    pub(crate) status: String,
    /// The badge's text ("Awaiting payment", "Paid", "Refunded", ...).
    pub(crate) label: String,
    /// The badge's tone: `info`, `good`, `bad`, `warn` or `neutral`.
    pub(crate) tone: String,
    /// Money was received (paid or later, refunds included): the page stops polling.
    pub(crate) settled: bool,
    /// A payment was submitted and is being confirmed: nobody should pay again.
    pub(crate) submitted: bool,
    /// What the notice says once submitted or settled; empty before.
    pub(crate) message: String,
    #[schema(nullable = true)]
    pub(crate) transaction_hash: Option<String>,
    /// "Return to shop" once settled: the receipt's redirect URL when it is HTTPS.
    #[schema(nullable = true)]
    pub(crate) redirect_url: Option<String>,
}

/// The live status of the page `view` renders.
pub(crate) fn live_status(view: &PortalView) -> LiveStatus {
    let (label, tone) = status_label(view.status);
    let stage = Stage::of(view.status);
    let message = match stage {
        Stage::Settled => settled_message(view.status, view.total),
        Stage::Confirming => {
            "Your payment is being confirmed on chain. There is no need to pay again.".to_owned()
        }
        Stage::Unopened | Stage::AwaitingPayment | Stage::Mismatch | Stage::Failed => String::new(),
    };
    LiveStatus {
        status: view.status.as_str().to_owned(),
        label: label.to_owned(),
        tone: tone.to_owned(),
        settled: stage == Stage::Settled,
        submitted: stage == Stage::Confirming,
        message,
        transaction_hash: view.transaction_hash.clone(),
        redirect_url: (stage == Stage::Settled)
            .then(|| view.redirect_url.clone())
            .flatten(),
    }
}
