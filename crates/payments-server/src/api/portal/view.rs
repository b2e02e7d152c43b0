//! What the payment page shows, independent of where it came from: the renderer is a pure function of this.

use payments_core::{
    Cents, Failure, OnrampProviderKind, PaymentRequest, ReceiptBalance, ReceiptStatus, Wallet,
};

/// The payment token's symbol (a 6-decimal USD stablecoin).
pub(crate) const TOKEN_SYMBOL: &str = "USDC";

/// One product or charge line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PortalLine {
    pub(crate) label: String,
    pub(crate) qty: Option<u32>,
    /// The line total.
    pub(crate) price: Cents,
}

/// Everything the payment page shows.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PortalView {
    pub(crate) receipt_id: String,
    pub(crate) brand_name: String,
    pub(crate) status: ReceiptStatus,
    /// Product and caller-supplied lines; tax and fee are shown from their own fields.
    pub(crate) lines: Vec<PortalLine>,
    pub(crate) tax: Cents,
    pub(crate) fee: Cents,
    pub(crate) total: Cents,
    /// `None` while the merchant has no split address to pay.
    pub(crate) payment: Option<PaymentRequest>,
    pub(crate) failure: Option<Failure>,
    pub(crate) transaction_hash: Option<String>,
    /// The merchant (the payment link's `merchant` parameter), for the page's own forms.
    pub(crate) merchant: Wallet,
    /// The server runs the test-mode chain: a banner says so, and the page offers a simulated payment.
    pub(crate) test_mode: bool,
    /// `payment` names the receipt's own deposit address, so a transfer from a browser wallet can be
    /// verified against it: the page's script offers Connect wallet and Pay.
    pub(crate) wallet_checkout: bool,
    /// Where "Return to shop" leads once paid: the receipt's redirect URL, HTTPS only.
    pub(crate) redirect_url: Option<String>,
    /// The card path's provider when the server has one and the receipt has its own deposit address (the
    /// purchased tokens must arrive where the watcher attributes them to this receipt): "Pay with card".
    pub(crate) card_onramp: Option<OnrampProviderKind>,
    /// The payment window as the page was rendered.
    pub(crate) window: PaymentWindowState,
    /// Part of the total arrived: the page asks for exactly the rest (`payment` is the remainder).
    pub(crate) underpaid: Option<ReceiptBalance>,
}

/// Where an unpaid receipt's payment window stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PaymentWindowState {
    /// Paid, or a receipt from before payment windows: nothing to show.
    NotApplicable,
    /// Still open for this many whole minutes (rounded up, so "1 minute" until it ends).
    Open { minutes_left: i64 },
    /// Ended unpaid: the page says so instead of payment instructions.
    Ended,
}

impl PaymentWindowState {
    /// The window of a receipt that expires at `expires_at` (`None`: no window), paid or not, at `now_ms`.
    pub(crate) fn at(expires_at: Option<i64>, unpaid: bool, expired: bool, now_ms: i64) -> Self {
        match expires_at {
            _ if !unpaid => PaymentWindowState::NotApplicable,
            _ if expired => PaymentWindowState::Ended,
            None => PaymentWindowState::NotApplicable,
            Some(at) if at <= now_ms => PaymentWindowState::Ended,
            Some(at) => PaymentWindowState::Open {
                minutes_left: (at - now_ms + 59_999) / 60_000,
            },
        }
    }
}

/// "45 minutes", "1 hour 5 minutes", "2 days 3 hours".
pub(crate) fn time_left(minutes: i64) -> String {
    let plural = |n: i64, unit: &str| format!("{n} {unit}{}", if n == 1 { "" } else { "s" });
    let (days, hours, mins) = (minutes / 1_440, minutes % 1_440 / 60, minutes % 60);
    match (days, hours) {
        (0, 0) => plural(mins, "minute"),
        (0, _) if mins == 0 => plural(hours, "hour"),
        (0, _) => format!("{} {}", plural(hours, "hour"), plural(mins, "minute")),
        (_, 0) => plural(days, "day"),
        _ => format!("{} {}", plural(days, "day"), plural(hours, "hour")),
    }
}

impl PortalView {
    /// The merchant's brand, or a neutral heading when the merchant never set one.
    pub(crate) fn brand(&self) -> &str {
        let brand = self.brand_name.trim();
        if brand.is_empty() {
            "Payment request"
        } else {
            brand
        }
    }
}

/// What a settled receipt's notice says, by status: refunded receipts say so instead of "Paid".
pub(crate) fn settled_message(status: ReceiptStatus, total: Cents) -> String {
    let total = usd(total);
    match status {
        ReceiptStatus::RefundPartial => {
            format!("Your payment of {total} was received; part of it was refunded.")
        }
        ReceiptStatus::Refunded => format!("Your payment of {total} was refunded."),
        ReceiptStatus::RefundRequested => {
            format!("Your payment of {total} was received; a refund was requested.")
        }
        _ => format!("Your payment of {total} was received. Thank you."),
    }
}

/// Only an `https:` URL becomes a link back to the shop: a page must never send a buyer to `javascript:`
/// or a plain-HTTP address it cannot vouch for.
pub(crate) fn https_only(url: Option<&str>) -> Option<String> {
    url.filter(|url| {
        url.len() > "https://".len()
            && url
                .get(..8)
                .is_some_and(|scheme| scheme.eq_ignore_ascii_case("https://"))
    })
    .map(str::to_owned)
}

/// What the page offers the buyer, decided by the status alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stage {
    /// The buyer has not opened the page yet (`generated`, `pending`): a button that opens it, so only a
    /// person's action (never a link previewer's GET) tells the merchant the link was opened.
    Unopened,
    /// Not paid yet: show how to pay.
    AwaitingPayment,
    /// A payment was submitted or mined and is being confirmed: no instructions, so nobody pays twice.
    Confirming,
    /// A transaction did not match the receipt: say so, and show how to pay correctly.
    Mismatch,
    /// The last attempt failed: the reason and what to do, then how to pay again.
    Failed,
    /// Money was received (including refund states): no instructions.
    Settled,
}

impl Stage {
    /// A status added to payments-core and not classified here shows no instructions (nobody pays twice);
    /// the test `every_status_has_its_own_stage_and_label` fails until it is classified.
    pub(crate) const fn of(status: ReceiptStatus) -> Stage {
        match Stage::classified(status) {
            Some(stage) => stage,
            None => Stage::Confirming,
        }
    }

    const fn classified(status: ReceiptStatus) -> Option<Stage> {
        Some(match status {
            ReceiptStatus::Generated | ReceiptStatus::Pending => Stage::Unopened,
            ReceiptStatus::LinkOpened
            | ReceiptStatus::BuyerLoggedIn
            | ReceiptStatus::CheckoutInitialized
            | ReceiptStatus::Underpaid => Stage::AwaitingPayment,
            ReceiptStatus::CheckoutSuccess | ReceiptStatus::TxMined | ReceiptStatus::RecipientValidated => {
                Stage::Confirming
            }
            ReceiptStatus::TxMismatch => Stage::Mismatch,
            ReceiptStatus::Failed => Stage::Failed,
            ReceiptStatus::Paid
            | ReceiptStatus::Completed
            | ReceiptStatus::Reconciled
            | ReceiptStatus::RefundRequested
            | ReceiptStatus::RefundPartial
            | ReceiptStatus::Refunded => Stage::Settled,
            _ => return None,
        })
    }

    pub(crate) const fn shows_instructions(self) -> bool {
        matches!(self, Stage::AwaitingPayment | Stage::Mismatch | Stage::Failed)
    }
}

/// The status as the buyer reads it, and the badge's CSS class; a status added to payments-core and not
/// labelled here reads "Processing".
pub(crate) const fn status_label(status: ReceiptStatus) -> (&'static str, &'static str) {
    match labelled(status) {
        Some(label) => label,
        None => ("Processing", "info"),
    }
}

const fn labelled(status: ReceiptStatus) -> Option<(&'static str, &'static str)> {
    Some(match status {
        ReceiptStatus::Generated
        | ReceiptStatus::Pending
        | ReceiptStatus::LinkOpened
        | ReceiptStatus::BuyerLoggedIn
        | ReceiptStatus::CheckoutInitialized => ("Awaiting payment", "info"),
        ReceiptStatus::CheckoutSuccess | ReceiptStatus::TxMined | ReceiptStatus::RecipientValidated => {
            ("Confirming payment", "info")
        }
        ReceiptStatus::TxMismatch => ("Payment did not match", "warn"),
        ReceiptStatus::Underpaid => ("Partly paid", "warn"),
        ReceiptStatus::Failed => ("Payment failed", "bad"),
        ReceiptStatus::Paid | ReceiptStatus::Completed | ReceiptStatus::Reconciled => ("Paid", "good"),
        ReceiptStatus::RefundRequested => ("Paid, refund requested", "good"),
        ReceiptStatus::RefundPartial => ("Partially refunded", "neutral"),
        ReceiptStatus::Refunded => ("Refunded", "neutral"),
        _ => return None,
    })
}

/// A chain's name for people; unknown ids read "Chain <id>".
pub(crate) fn chain_name(chain_id: u64) -> String {
    let known = match chain_id {
        1 => "Ethereum",
        10 => "OP Mainnet",
        137 => "Polygon",
        8453 => "Base",
        42161 => "Arbitrum One",
        84532 => "Base Sepolia",
        11155111 => "Sepolia",
        31337 => "Local test chain",
        _ => return format!("Chain {chain_id}"),
    };
    known.to_owned()
}

/// `$1,234.56` (cents are exact; no floats).
pub(crate) fn usd(amount: Cents) -> String {
    let cents = amount.as_i64();
    let sign = if cents < 0 { "-" } else { "" };
    let abs = cents.unsigned_abs();
    let dollars = (abs / 100).to_string();
    let mut grouped = String::with_capacity(dollars.len() + dollars.len() / 3);
    for (index, digit) in dollars.chars().enumerate() {
        if index > 0 && (dollars.len() - index).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    format!("{sign}${grouped}.{:02}", abs % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usd_groups_thousands_and_keeps_two_decimals() {
        assert_eq!(usd(Cents::new(0)), "$0.00");
        assert_eq!(usd(Cents::new(1265)), "$12.65");
        assert_eq!(usd(Cents::new(123_456_789)), "$1,234,567.89");
        assert_eq!(usd(Cents::new(100_000)), "$1,000.00");
        assert_eq!(usd(Cents::new(-5)), "-$0.05");
    }

    #[test]
    fn only_opened_unpaid_failed_or_mismatched_receipts_show_instructions() {
        for status in ReceiptStatus::ALL {
            let expected = !status.is_settled()
                && !matches!(
                    status,
                    ReceiptStatus::Generated
                        | ReceiptStatus::Pending
                        | ReceiptStatus::CheckoutSuccess
                        | ReceiptStatus::TxMined
                        | ReceiptStatus::RecipientValidated
                );
            assert_eq!(Stage::of(status).shows_instructions(), expected, "{status}");
        }
    }

    #[test]
    fn every_status_has_its_own_stage_and_label() {
        for status in ReceiptStatus::ALL {
            assert!(Stage::classified(status).is_some(), "{status} has no stage");
            assert!(labelled(status).is_some(), "{status} has no label");
        }
    }

    #[test]
    fn only_https_redirects_become_links() {
        assert_eq!(
            https_only(Some("https://shop.example/thanks")).as_deref(),
            Some("https://shop.example/thanks")
        );
        assert_eq!(https_only(Some("http://shop.example/")), None);
        assert_eq!(https_only(Some("javascript:alert(1)")), None);
        assert_eq!(https_only(Some("https://")), None);
        assert_eq!(https_only(None), None);
    }

    #[test]
    fn refunded_receipts_say_so() {
        assert_eq!(
            settled_message(ReceiptStatus::Refunded, Cents::new(1250)),
            "Your payment of $12.50 was refunded."
        );
        assert!(
            settled_message(ReceiptStatus::RefundPartial, Cents::new(1250))
                .contains("part of it was refunded")
        );
        assert!(settled_message(ReceiptStatus::Paid, Cents::new(1250)).ends_with("Thank you."));
    }

    #[test]
    fn chain_names_are_readable() {
        assert_eq!(chain_name(8453), "Base");
        assert_eq!(chain_name(999), "Chain 999");
    }
}
