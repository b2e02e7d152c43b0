//! Pure domain of the merchant payments platform.
//!
//! No I/O, no clock, no randomness: callers pass `now` and ids in. Money is integer cents ([`Cents`]),
//! rates are exact decimals, and every rule that decides money or state lives here so the server, the
//! client and tests share one definition.

mod money;
mod spend_permission;
mod subscription;

pub use money::{Cents, MoneyError, TokenAmount};
pub use spend_permission::*;
pub use subscription::*;
