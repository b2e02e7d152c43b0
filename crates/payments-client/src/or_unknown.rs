//! Values of a wire vocabulary the service may extend (statuses, events, error codes): one this version
//! knows, or a newer one kept verbatim, so the first new status never fails a whole response.

use std::fmt;

use payments_core::{BillingPeriod, ErrorCode, ReceiptStatus, ReserveBasis, SubscriptionStatus};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A closed set of names this version of the client knows, each with one wire spelling.
///
/// Implemented for the vocabularies of `payments-core` the service answers with ([`ReceiptStatus`],
/// [`SubscriptionStatus`], [`BillingPeriod`], [`ReserveBasis`], [`ErrorCode`]) and for the client's own
/// ([`crate::ChargeStatus`], [`crate::BillingEventStatus`], [`crate::WebhookEvent`],
/// [`crate::DeliveryState`], [`crate::HealthStatus`], [`crate::DatastoreState`]).
pub trait WireName: Copy + Sized {
    /// The name on the wire.
    fn wire_name(self) -> &'static str;

    /// The value named `name`, or `None` for a name this version does not know.
    fn from_wire_name(name: &str) -> Option<Self>;
}

/// A value of `T` read from the service, or a name this version does not know, verbatim.
///
/// Compare with a known value directly, or take it with [`OrUnknown::known`]:
///
/// ```
/// use payments_client::OrUnknown;
/// use payments_core::ReceiptStatus;
///
/// let paid: OrUnknown<ReceiptStatus> = serde_json::from_str(r#""paid""#).unwrap();
/// assert_eq!(paid, ReceiptStatus::Paid);
/// let newer: OrUnknown<ReceiptStatus> = serde_json::from_str(r#""escrow_held""#).unwrap();
/// assert_eq!(newer, OrUnknown::Unknown("escrow_held".to_owned()));
/// assert_eq!(newer.known(), None);
/// assert_eq!(newer.to_string(), "escrow_held");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum OrUnknown<T> {
    /// A value this version knows.
    Known(T),
    /// A name this version does not know (added by a newer service), verbatim.
    Unknown(String),
}

/// The `status` of a receipt read from the service: a status this version knows, or a newer one verbatim.
pub type ReceiptStatusValue = OrUnknown<ReceiptStatus>;

impl<T: WireName> OrUnknown<T> {
    /// Reads a wire name; never fails.
    pub fn parse(name: &str) -> Self {
        T::from_wire_name(name).map_or_else(|| OrUnknown::Unknown(name.to_owned()), OrUnknown::Known)
    }

    /// The known value, or `None` for a name this version does not know.
    pub fn known(&self) -> Option<T> {
        match self {
            OrUnknown::Known(value) => Some(*value),
            OrUnknown::Unknown(_) => None,
        }
    }

    /// The wire name, known or not.
    pub fn as_str(&self) -> &str {
        match self {
            OrUnknown::Known(value) => value.wire_name(),
            OrUnknown::Unknown(name) => name,
        }
    }
}

impl<T> From<T> for OrUnknown<T> {
    fn from(value: T) -> Self {
        OrUnknown::Known(value)
    }
}

impl<T: WireName + PartialEq> PartialEq<T> for OrUnknown<T> {
    fn eq(&self, other: &T) -> bool {
        self.known().as_ref() == Some(other)
    }
}

impl<T: WireName> fmt::Display for OrUnknown<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl<T: WireName> Serialize for OrUnknown<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de, T: WireName> Deserialize<'de> for OrUnknown<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        Ok(OrUnknown::parse(&name))
    }
}

/// Implements [`WireName`] for a `payments-core` vocabulary through its own spelling (`as_str`) and the
/// list of its values, so the client never writes a second spelling.
macro_rules! wire_name_from_core {
    ($($vocabulary:ty => $all:expr;)+) => {
        $(impl WireName for $vocabulary {
            fn wire_name(self) -> &'static str {
                self.as_str()
            }

            fn from_wire_name(name: &str) -> Option<Self> {
                $all.iter().copied().find(|value| value.as_str() == name)
            }
        })+
    };
}

wire_name_from_core! {
    ReceiptStatus => ReceiptStatus::ALL;
    SubscriptionStatus => SubscriptionStatus::ALL;
    BillingPeriod => BillingPeriod::ALL;
    ReserveBasis => ReserveBasis::ALL;
    ErrorCode => ErrorCode::ALL;
}

/// Implements [`WireName`] for one of the client's own vocabularies from a single `Variant => "name"` table.
macro_rules! wire_names {
    ($vocabulary:ident { $($variant:ident => $name:literal,)+ }) => {
        impl $crate::or_unknown::WireName for $vocabulary {
            fn wire_name(self) -> &'static str {
                match self {
                    $($vocabulary::$variant => $name,)+
                }
            }

            fn from_wire_name(name: &str) -> Option<Self> {
                match name {
                    $($name => Some($vocabulary::$variant),)+
                    _ => None,
                }
            }
        }
    };
}
pub(crate) use wire_names;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_code_the_server_can_answer_reads_back_as_itself() {
        for &code in ErrorCode::ALL {
            let read: OrUnknown<ErrorCode> =
                serde_json::from_value(serde_json::json!(code.as_str())).unwrap();

            assert_eq!(read, OrUnknown::Known(code), "{code}");
        }
    }

    #[test]
    fn a_known_value_writes_its_wire_name_and_an_unknown_one_its_verbatim_name() {
        let known = OrUnknown::Known(SubscriptionStatus::PastDue);
        let unknown: OrUnknown<SubscriptionStatus> = OrUnknown::parse("paused_v2");

        assert_eq!(serde_json::to_string(&known).unwrap(), r#""past_due""#);
        assert_eq!(serde_json::to_string(&unknown).unwrap(), r#""paused_v2""#);
        assert_eq!(unknown, OrUnknown::Unknown("paused_v2".to_owned()));
        assert_ne!(unknown, SubscriptionStatus::Active);
    }

    #[test]
    fn names_are_case_sensitive_as_on_the_wire() {
        assert_eq!(
            OrUnknown::<BillingPeriod>::parse("monthly"),
            OrUnknown::Unknown("monthly".to_owned())
        );
        assert_eq!(
            OrUnknown::<BillingPeriod>::parse("MONTHLY"),
            BillingPeriod::Monthly
        );
    }
}
