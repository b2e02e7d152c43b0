//! Use cases: each service holds only the repositories, clock and settings it uses (no app state, no HTTP),
//! and runs each use case as one repository transaction.

pub(crate) mod admin_auth;
pub(crate) mod auth;
pub(crate) mod billing;
pub(crate) mod chain;
pub(crate) mod health;
pub(crate) mod idempotency;
pub(crate) mod instance_settings;
pub(crate) mod inventory;
pub(crate) mod keys;
pub(crate) mod ledger;
pub(crate) mod onramp;
pub(crate) mod receipts;
pub(crate) mod recent_callers;
pub(crate) mod reconcile;
pub(crate) mod recurring;
pub(crate) mod reserve;
pub(crate) mod session_token;
pub(crate) mod shop;
pub(crate) mod split;
pub(crate) mod split_transactions;
pub(crate) mod users;
pub(crate) mod webhook_endpoints;
mod wiring;
pub(crate) mod worker;

pub(crate) use wiring::Services;
