//! Use cases: load through the store, decide, commit through one store call.

pub(crate) mod admin_auth;
pub(crate) mod auth;
pub(crate) mod health;
pub(crate) mod inventory;
pub(crate) mod keys;
pub(crate) mod receipts;
pub(crate) mod recent_callers;
pub(crate) mod session_token;
pub(crate) mod shop;
pub(crate) mod split;
