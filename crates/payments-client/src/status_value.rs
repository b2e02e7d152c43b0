//! A receipt status as read from the wire: one this version knows, or a newer one kept verbatim.

use std::fmt;

use payments_core::ReceiptStatus;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The `status` of a receipt read from the service.
///
/// The service may add statuses before this client learns them; an unknown name decodes into
/// [`ReceiptStatusValue::Unknown`] instead of failing the whole response. Compare with a known status
/// directly:
///
/// ```
/// use payments_client::ReceiptStatusValue;
/// use payments_core::ReceiptStatus;
///
/// let paid: ReceiptStatusValue = serde_json::from_str(r#""paid""#).unwrap();
/// assert_eq!(paid, ReceiptStatus::Paid);
/// let newer: ReceiptStatusValue = serde_json::from_str(r#""escrow_held""#).unwrap();
/// assert_eq!(newer, ReceiptStatusValue::Unknown("escrow_held".to_owned()));
/// assert_eq!(newer.known(), None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ReceiptStatusValue {
    /// A status this version knows.
    Known(ReceiptStatus),
    /// A status this version does not know, verbatim.
    Unknown(String),
}

impl ReceiptStatusValue {
    /// Reads a wire name.
    pub fn parse(name: &str) -> Self {
        name.parse().map_or_else(
            |_| ReceiptStatusValue::Unknown(name.to_owned()),
            ReceiptStatusValue::Known,
        )
    }

    /// The known status, or `None` for one this version does not know.
    pub fn known(&self) -> Option<ReceiptStatus> {
        match self {
            ReceiptStatusValue::Known(status) => Some(*status),
            ReceiptStatusValue::Unknown(_) => None,
        }
    }

    /// The wire name.
    pub fn as_str(&self) -> &str {
        match self {
            ReceiptStatusValue::Known(status) => status.as_str(),
            ReceiptStatusValue::Unknown(name) => name,
        }
    }
}

impl From<ReceiptStatus> for ReceiptStatusValue {
    fn from(status: ReceiptStatus) -> Self {
        ReceiptStatusValue::Known(status)
    }
}

impl PartialEq<ReceiptStatus> for ReceiptStatusValue {
    fn eq(&self, other: &ReceiptStatus) -> bool {
        self.known() == Some(*other)
    }
}

impl fmt::Display for ReceiptStatusValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ReceiptStatusValue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ReceiptStatusValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        Ok(ReceiptStatusValue::parse(&name))
    }
}
