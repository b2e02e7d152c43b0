//! The server's domain types: ids, drafts, queries and records, parsed at the edge so services and the
//! store never see raw strings. Depends on `payments-core` only (its own crate so Cargo keeps the arrow
//! pointing down: the store and the server build on it, it knows neither).

pub mod admin;
pub mod api_key;
pub mod chain;
pub mod digest;
pub mod field_error;
pub mod inventory;
pub mod page_cursor;
pub mod page_limit;
pub mod receipt;
pub mod recurring;
pub mod scope;
pub mod secret;
pub mod shop;
pub mod shop_settings;
pub mod split;
pub mod split_transactions;
pub mod subscription;
pub mod user;
pub mod webhook_endpoint;

pub use secret::Secret;
