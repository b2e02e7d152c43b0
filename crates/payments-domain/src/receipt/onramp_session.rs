//! The card-onramp session a receipt's payment page created: which provider, its id (the webhook's
//! `onrampSessionId`) and where the buyer was sent.

use payments_core::OnrampProviderKind;

/// The latest onramp session of a receipt. Each session is created for exactly one receipt (its own deposit
/// address and amount), so the webhook's `isOnrampSessionUnique` is true whenever a receipt has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OnrampSession {
    pub provider: OnrampProviderKind,
    /// The provider's session id (Stripe `cos_…`; Coinbase: the onramp URL's session token).
    pub session_id: String,
    /// The provider's page the buyer pays on.
    pub url: String,
    /// When the server created it (Unix ms): whether it may be handed out again.
    pub created_at: i64,
}

impl OnrampSession {
    /// Reads the stored columns back; `None` when the receipt has no session (or a provider this build no
    /// longer knows, which then counts as none: the next press creates one with the current provider).
    pub fn from_stored(
        provider: Option<String>,
        session_id: Option<String>,
        url: Option<String>,
        created_at: Option<i64>,
    ) -> Option<OnrampSession> {
        Some(OnrampSession {
            provider: provider?.parse().ok()?,
            session_id: session_id?,
            url: url?,
            created_at: created_at?,
        })
    }
}
