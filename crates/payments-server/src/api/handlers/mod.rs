//! Thin handlers: extract (auth, ids, JSON) -> convert -> one service call -> render. Grouped by resource:
//! a folder when a resource has several files (`receipts/`, `subscriptions/`, `users/`, `split/`).

pub(crate) mod admin_auth;
pub(crate) mod billing;
pub(crate) mod exports;
pub(crate) mod graphql;
pub(crate) mod health;
pub(crate) mod images;
pub(crate) mod inventory;
pub(crate) mod ledger_csv;
pub(crate) mod metrics;
pub(crate) mod openapi;
pub(crate) mod orders;
pub(crate) mod ping;
pub(crate) mod platform_config;
pub(crate) mod portal;
pub(crate) mod portal_checkout;
pub(crate) mod portal_onramp;
pub(crate) mod receipts;
pub(crate) mod reconcile;
pub(crate) mod reserve;
pub(crate) mod root;
pub(crate) mod shop;
pub(crate) mod split;
pub(crate) mod subscribe_page;
pub(crate) mod subscriptions;
pub(crate) mod test_fund;
pub(crate) mod users;
pub(crate) mod webhook_endpoints;
