//! Use cases: load through the store, decide, commit through one store call.

pub(crate) mod auth;
pub(crate) mod health;
pub(crate) mod inventory;
pub(crate) mod keys;
pub(crate) mod recent_callers;
pub(crate) mod shop;
