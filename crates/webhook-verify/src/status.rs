//! The string enums of the event bodies (receipt status, failure category, subscription status, billing
//! period), each with an `Unknown` fallback so a value added by the service later never makes a webhook fail
//! to parse.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Defines a string enum with known variants, an `Unknown(String)` fallback, `as_str`, `From<&str>`, `Display`
/// and serde impls that read and write the wire string.
macro_rules! string_enum {
    (
        $(#[$meta:meta])*
        $name:ident {
            $( $(#[$variant_meta:meta])* $variant:ident => $wire:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $name {
            $( $(#[$variant_meta])* $variant, )+
            /// A value this version of the crate does not know, kept verbatim.
            Unknown(String),
        }

        impl $name {
            /// The value as it appears on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    $( Self::$variant => $wire, )+
                    Self::Unknown(other) => other,
                }
            }
        }

        impl From<&str> for $name {
            fn from(wire: &str) -> Self {
                match wire {
                    $( $wire => Self::$variant, )+
                    other => Self::Unknown(other.to_owned()),
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let wire = String::deserialize(deserializer)?;
                Ok(Self::from(wire.as_str()))
            }
        }
    };
}

string_enum! {
    /// A receipt's payment status, as carried by `status` and `previousStatus`.
    ///
    /// Statuses the service adds later arrive as [`ReceiptStatus::Unknown`]; so do the `refund_*` statuses,
    /// which [`ReceiptStatus::is_refund`] recognises.
    ReceiptStatus {
        /// Order created, awaiting payment.
        Generated => "generated",
        /// Payment initiated.
        Pending => "pending",
        /// Payment confirmed on chain.
        Paid => "paid",
        /// Payment split to the recipients.
        Completed => "completed",
        /// Payment declined or failed; the failure fields say why.
        Failed => "failed",
        /// Order refunded.
        Refunded => "refunded",
        /// The payment transaction was mined.
        TxMined => "tx_mined",
        /// The payment's recipient was validated.
        RecipientValidated => "recipient_validated",
        /// The on-chain transaction does not match the receipt.
        TxMismatch => "tx_mismatch",
        /// The payment was reconciled.
        Reconciled => "reconciled",
        /// The buyer started checkout.
        CheckoutInitialized => "checkout_initialized",
        /// The buyer opened the payment portal.
        LinkOpened => "link_opened",
        /// The buyer connected a wallet.
        BuyerLoggedIn => "buyer_logged_in",
        /// Checkout reported success.
        CheckoutSuccess => "checkout_success",
        /// Part of the total arrived on chain; the amount fields say what is still due.
        Underpaid => "underpaid",
    }
}

impl ReceiptStatus {
    /// Whether this is one of the `refund_*` statuses.
    pub fn is_refund(&self) -> bool {
        matches!(self, Self::Unknown(other) if other.starts_with("refund_"))
    }
}

string_enum! {
    /// Why a payment failed, as carried by `failureCategory`.
    FailureCategory {
        /// Issuer decline, wrong security code, insufficient funds, expired card, fraud screening, failed 3-D
        /// verification.
        CardDecline => "card_decline",
        /// Identity steps, unreadable documents, date-of-birth mismatch, sanctions, minimum age, unsupported
        /// jurisdiction.
        Compliance => "compliance",
        /// Over the verification-tier limit, over the single-transaction maximum, under the minimum.
        Limits => "limits",
        /// Insufficient tokens or gas, signature rejected, slippage, contract revert, failed ownership check.
        Blockchain => "blockchain",
        /// Portal closed, session expired, cancelled.
        Session => "session",
        /// Network timeout or processing error.
        System => "system",
    }
}

string_enum! {
    /// A customer subscription's status, as carried by a subscription event's `status` and `previousStatus`.
    SubscriptionStatus {
        /// In its plan's free trial: nothing charged yet; the first charge is due when the trial ends.
        Trialing => "trialing",
        /// Charged on schedule.
        Active => "active",
        /// Every attempt of at least one period failed; the next period is still attempted.
        PastDue => "past_due",
        /// Ended by the customer, the merchant, an expired permission or repeated failures; never charged
        /// again.
        Canceled => "canceled",
    }
}

string_enum! {
    /// How often a subscription is charged, as carried by a subscription event's `period`.
    BillingPeriod {
        /// Every 7 days.
        Weekly => "WEEKLY",
        /// Every 14 days.
        Biweekly => "BIWEEKLY",
        /// Every 30 days.
        Monthly => "MONTHLY",
        /// Every 90 days.
        Quarterly => "QUARTERLY",
        /// Every 365 days.
        Yearly => "YEARLY",
    }
}
