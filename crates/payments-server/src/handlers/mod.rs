//! Thin handlers: extract (auth, ids, JSON) -> convert -> one service call -> render.

pub(crate) mod admin_auth;
pub(crate) mod billing;
pub(crate) mod graphql;
pub(crate) mod health;
pub(crate) mod images;
pub(crate) mod inventory;
pub(crate) mod metrics;
pub(crate) mod orders;
pub(crate) mod ping;
pub(crate) mod platform_config;
pub(crate) mod portal;
pub(crate) mod receipt_admin;
pub(crate) mod receipt_status;
pub(crate) mod receipt_view;
pub(crate) mod receipt_webhooks;
pub(crate) mod receipts;
pub(crate) mod reserve;
pub(crate) mod shop;
pub(crate) mod split;
pub(crate) mod split_transactions;
pub(crate) mod subscription_cron;
pub(crate) mod subscription_plans;
pub(crate) mod subscription_view;
pub(crate) mod subscriptions;
pub(crate) mod user_view;
pub(crate) mod users;
