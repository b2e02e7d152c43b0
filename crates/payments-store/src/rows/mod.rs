//! Rows as both backends store them, and the one place each is parsed into its domain record.
//!
//! Each backend reads its driver's columns into a plain row struct (strings, integers and bytes as stored)
//! and calls its `into_record()`; a value that does not parse comes back as a message, which the backend
//! reports as corrupt data in its own error type. The same way back: what both backends compute from a
//! record to store it is computed here once. The SQL (placeholders, dialect) stays in each backend.

mod chain;
mod changes;
mod charges;
mod deliveries;
mod endpoints;
mod inventory;
mod keys;
mod receipts;
mod recurring;
mod shops;
mod users;

use std::fmt::Display;

pub(crate) use chain::ChainTransferRow;
pub(crate) use changes::{ChangeRow, PendingRow, proration_columns};
pub(crate) use charges::{BillingEventRow, ChargeRow, ClaimStep, claim_step, units, units_column};
pub(crate) use deliveries::{AttemptRow, DeliveryLogEntryRow, DueRow};
pub(crate) use endpoints::{DeliveryLogRow, DisabledRow, EndpointRow};
pub(crate) use inventory::{Existing, ItemRow, unknown_image};
pub(crate) use keys::{KeyRow, rotated};
pub(crate) use receipts::ReceiptRow;
pub(crate) use recurring::{HookRow, PlanRow, SubscriptionRow, plan_columns, webhook_columns};
pub(crate) use shops::ShopRow;
pub(crate) use users::{ProfileColumns, UserRow, profile_metrics};

/// The message of a column `name` that does not parse.
fn bad(name: &str, error: impl Display) -> String {
    format!("{name}: {error}")
}

/// A JSON text column `name`.
fn json<T: serde::de::DeserializeOwned>(name: &str, text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|error| bad(name, error))
}
