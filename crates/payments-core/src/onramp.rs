//! The card path's pure decisions: which onramp providers exist, which network name each gives a chain, and
//! what a provider's refusal means for the buyer (one of the spec's failure categories and a `PORTAL_ONRAMP_…`
//! code). No I/O: the server's adapters read the provider's answer and ask here what it means.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::FailureCategory;

/// A card-onramp provider the server can create sessions with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OnrampProviderKind {
    /// Stripe's fiat-to-crypto onramp (`POST /v1/crypto/onramp_sessions`).
    Stripe,
    /// Coinbase Onramp (`POST /platform/v2/onramp/sessions`).
    Coinbase,
}

impl OnrampProviderKind {
    /// Every provider, in the order the documentation lists them.
    pub const ALL: [OnrampProviderKind; 2] = [OnrampProviderKind::Stripe, OnrampProviderKind::Coinbase];

    /// The name used in flags, the database and the page (`stripe`, `coinbase`).
    pub const fn as_str(self) -> &'static str {
        match self {
            OnrampProviderKind::Stripe => "stripe",
            OnrampProviderKind::Coinbase => "coinbase",
        }
    }

    /// The provider's name for people ("Stripe", "Coinbase").
    pub const fn display_name(self) -> &'static str {
        match self {
            OnrampProviderKind::Stripe => "Stripe",
            OnrampProviderKind::Coinbase => "Coinbase",
        }
    }

    /// The provider's name of the network of `chain_id`, `None` when it delivers nothing there (the test
    /// chains among them: a provider's sandbox never pays a local chain).
    ///
    /// ```
    /// use payments_core::OnrampProviderKind;
    ///
    /// assert_eq!(OnrampProviderKind::Stripe.network(8453), Some("base"));
    /// assert_eq!(OnrampProviderKind::Coinbase.network(42161), Some("arbitrum"));
    /// assert_eq!(OnrampProviderKind::Stripe.network(31337), None);
    /// ```
    pub const fn network(self, chain_id: u64) -> Option<&'static str> {
        match (self, chain_id) {
            (_, 1) => Some("ethereum"),
            (_, 8453) => Some("base"),
            (_, 137) => Some("polygon"),
            (_, 10) => Some("optimism"),
            (OnrampProviderKind::Coinbase, 42161) => Some("arbitrum"),
            _ => None,
        }
    }

    /// Whether a session this provider created `age_ms` ago may be handed to the buyer again instead of
    /// creating another. Coinbase's onramp URLs are single-use (once visited, nobody else can open them), so
    /// they are never reused; a Stripe session serves one buyer until it is paid, so a second press within
    /// five minutes (a double click, a reload) gets the same session rather than a second one.
    pub const fn reuses(self, age_ms: i64) -> bool {
        match self {
            OnrampProviderKind::Stripe => 0 <= age_ms && age_ms < STRIPE_REUSE_MS,
            OnrampProviderKind::Coinbase => false,
        }
    }
}

/// How long a Stripe session is handed out again (see [`OnrampProviderKind::reuses`]).
const STRIPE_REUSE_MS: i64 = 5 * 60 * 1000;

impl fmt::Display for OnrampProviderKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A provider name that is not `stripe` or `coinbase`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown onramp provider '{0}' (expected stripe or coinbase)")]
pub struct UnknownOnrampProvider(pub String);

impl FromStr for OnrampProviderKind {
    type Err = UnknownOnrampProvider;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        OnrampProviderKind::ALL
            .into_iter()
            .find(|kind| kind.as_str().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| UnknownOnrampProvider(text.chars().take(32).collect()))
    }
}

/// What went wrong when asking a provider for a session, as the adapter saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnrampAnswer<'a> {
    /// No answer in time, or the connection failed.
    Unreachable,
    /// An HTTP error status with the provider's error code (Stripe's `error.code`, Coinbase's `errorType`)
    /// when it sent one.
    Refused { status: u16, code: Option<&'a str> },
    /// A success status whose body lacks the session (no id or no URL).
    Malformed,
}

/// Why a card session could not be started: a spec failure category and a stable `PORTAL_ONRAMP_…` code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OnrampFailure {
    pub category: FailureCategory,
    pub code: &'static str,
}

impl OnrampFailure {
    /// What the payment page tells the buyer: what happened and what to do instead, by category. The
    /// provider's own words are not shown (they can name the server's credentials or configuration).
    pub const fn buyer_message(self) -> &'static str {
        match self.category {
            FailureCategory::CardDecline => {
                "The card payment was declined. Try another card, or pay with a wallet instead."
            }
            FailureCategory::Compliance => {
                "The card payment provider cannot serve this purchase (identity or region requirements). \
                 Pay with a wallet instead."
            }
            FailureCategory::Limits => {
                "This amount is outside the card payment provider's limits. Pay with a wallet instead."
            }
            FailureCategory::Session => "The card payment session could not be started. Please try again.",
            FailureCategory::Blockchain | FailureCategory::System => {
                "Card payments are unavailable right now. Try again later, or pay with a wallet instead."
            }
        }
    }
}

/// Words of provider error codes and the category they put a refusal in, checked in this order. Providers
/// document their codes as they go (Stripe: `crypto_onramp_…`; Coinbase: `errorType` values such as
/// `guest_region_forbidden`), so the words they share are matched rather than a list that ages.
const CODE_WORDS: [(&str, FailureCategory, &str); 13] = [
    ("region", FailureCategory::Compliance, "PORTAL_ONRAMP_COMPLIANCE"),
    ("country", FailureCategory::Compliance, "PORTAL_ONRAMP_COMPLIANCE"),
    (
        "jurisdiction",
        FailureCategory::Compliance,
        "PORTAL_ONRAMP_COMPLIANCE",
    ),
    (
        "sanction",
        FailureCategory::Compliance,
        "PORTAL_ONRAMP_COMPLIANCE",
    ),
    ("kyc", FailureCategory::Compliance, "PORTAL_ONRAMP_COMPLIANCE"),
    (
        "unsupport",
        FailureCategory::Compliance,
        "PORTAL_ONRAMP_COMPLIANCE",
    ),
    ("limit", FailureCategory::Limits, "PORTAL_ONRAMP_LIMITS"),
    ("minimum", FailureCategory::Limits, "PORTAL_ONRAMP_LIMITS"),
    ("maximum", FailureCategory::Limits, "PORTAL_ONRAMP_LIMITS"),
    ("amount", FailureCategory::Limits, "PORTAL_ONRAMP_LIMITS"),
    (
        "declin",
        FailureCategory::CardDecline,
        "PORTAL_ONRAMP_CARD_DECLINED",
    ),
    (
        "card",
        FailureCategory::CardDecline,
        "PORTAL_ONRAMP_CARD_DECLINED",
    ),
    ("expired", FailureCategory::Session, "PORTAL_ONRAMP_SESSION"),
];

/// What a provider's answer means for the buyer.
///
/// Timeouts, 5xx, rate limits and the provider refusing the server's own credentials (401/403) are
/// `system` (nothing the buyer did); a 4xx whose code names the buyer's region, an amount limit, the card
/// or an expired session takes that category; any other 4xx is `system` too (the request was the server's).
///
/// ```
/// use payments_core::{FailureCategory, OnrampAnswer, classify_onramp_refusal};
///
/// let refused = OnrampAnswer::Refused { status: 400, code: Some("crypto_onramp_unsupported_country") };
/// assert_eq!(classify_onramp_refusal(refused).category, FailureCategory::Compliance);
/// assert_eq!(classify_onramp_refusal(OnrampAnswer::Unreachable).code, "PORTAL_ONRAMP_UNREACHABLE");
/// ```
pub fn classify_onramp_refusal(answer: OnrampAnswer<'_>) -> OnrampFailure {
    let system = |code| OnrampFailure {
        category: FailureCategory::System,
        code,
    };
    match answer {
        OnrampAnswer::Unreachable => system("PORTAL_ONRAMP_UNREACHABLE"),
        OnrampAnswer::Malformed => system("PORTAL_ONRAMP_PROVIDER_ERROR"),
        OnrampAnswer::Refused { status, .. } if status >= 500 => system("PORTAL_ONRAMP_PROVIDER_ERROR"),
        OnrampAnswer::Refused {
            status: 401 | 403, ..
        } => system("PORTAL_ONRAMP_NOT_AUTHORIZED"),
        OnrampAnswer::Refused { status: 429, .. } => system("PORTAL_ONRAMP_BUSY"),
        OnrampAnswer::Refused { code, .. } => {
            let code = code.unwrap_or_default().to_ascii_lowercase();
            CODE_WORDS
                .iter()
                .find(|(word, _, _)| code.contains(word))
                .map_or(system("PORTAL_ONRAMP_REJECTED"), |&(_, category, code)| {
                    OnrampFailure { category, code }
                })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(status: u16, code: &str) -> OnrampFailure {
        classify_onramp_refusal(OnrampAnswer::Refused {
            status,
            code: Some(code),
        })
    }

    #[test]
    fn provider_names_read_back_whatever_their_case() {
        for kind in OnrampProviderKind::ALL {
            assert_eq!(kind.as_str().parse(), Ok(kind));
        }
        assert_eq!("Stripe".parse(), Ok(OnrampProviderKind::Stripe));
        assert!("moonpay".parse::<OnrampProviderKind>().is_err());
    }

    #[test]
    fn buyer_side_refusals_take_their_category() {
        assert_eq!(
            refused(400, "crypto_onramp_unsupported_country"),
            OnrampFailure {
                category: FailureCategory::Compliance,
                code: "PORTAL_ONRAMP_COMPLIANCE"
            }
        );
        assert_eq!(
            refused(400, "guest_region_forbidden").category,
            FailureCategory::Compliance
        );
        assert_eq!(
            refused(400, "guest_transaction_limit").category,
            FailureCategory::Limits
        );
        assert_eq!(refused(400, "amount_too_small").code, "PORTAL_ONRAMP_LIMITS");
        assert_eq!(
            refused(402, "card_declined").category,
            FailureCategory::CardDecline
        );
        assert_eq!(refused(400, "session_expired").category, FailureCategory::Session);
    }

    #[test]
    fn server_side_failures_are_system() {
        for failure in [
            classify_onramp_refusal(OnrampAnswer::Unreachable),
            classify_onramp_refusal(OnrampAnswer::Malformed),
            refused(500, "card_declined"),
            refused(503, ""),
            refused(401, "invalid_api_key"),
            refused(403, "forbidden"),
            refused(429, "rate_limit"),
            refused(400, "parameter_missing"),
            classify_onramp_refusal(OnrampAnswer::Refused {
                status: 400,
                code: None,
            }),
        ] {
            assert_eq!(failure.category, FailureCategory::System, "{failure:?}");
        }
        assert_eq!(refused(401, "x").code, "PORTAL_ONRAMP_NOT_AUTHORIZED");
        assert_eq!(refused(502, "x").code, "PORTAL_ONRAMP_PROVIDER_ERROR");
        assert_eq!(refused(400, "parameter_missing").code, "PORTAL_ONRAMP_REJECTED");
    }

    #[test]
    fn only_stripe_sessions_are_reused_and_only_briefly() {
        assert!(OnrampProviderKind::Stripe.reuses(0));
        assert!(OnrampProviderKind::Stripe.reuses(299_999));
        assert!(!OnrampProviderKind::Stripe.reuses(300_000));
        assert!(!OnrampProviderKind::Stripe.reuses(-1));
        assert!(!OnrampProviderKind::Coinbase.reuses(0));
    }

    #[test]
    fn test_chains_have_no_provider_network() {
        for kind in OnrampProviderKind::ALL {
            assert_eq!(kind.network(31_337), None);
            assert_eq!(kind.network(84_532), None);
            assert_eq!(kind.network(8453), Some("base"));
        }
        assert_eq!(OnrampProviderKind::Stripe.network(42161), None);
    }
}
