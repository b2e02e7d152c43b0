//! Server-side domain types: parsed at the edge, so services never see raw strings.

pub(crate) mod admin;
pub(crate) mod api_key;
pub(crate) mod chain;
pub(crate) mod digest;
pub(crate) mod field_error;
pub(crate) mod inventory;
pub(crate) mod page_cursor;
pub(crate) mod page_limit;
pub(crate) mod receipt;
pub(crate) mod recurring;
pub(crate) mod scope;
pub(crate) mod shop;
pub(crate) mod shop_settings;
pub(crate) mod split;
pub(crate) mod split_transactions;
pub(crate) mod subscription;
pub(crate) mod user;
