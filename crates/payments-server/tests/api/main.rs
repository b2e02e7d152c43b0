//! HTTP tests of the payments server: each test spawns its own server on a temp database.

// Helpers here are test code too (clippy's allow-in-tests covers only `#[test]` functions): a failed unwrap
// is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod admin_helpers;
mod admin_sessions;
mod anvil;
mod auth;
mod billing;
mod chain_anvil;
mod chain_payments;
mod degraded_mode;
mod dev_mode;
mod errors;
mod exact_numbers;
mod graceful_shutdown;
mod graphql;
mod health_and_ping;
mod helpers;
mod idempotency;
mod image_route;
mod images;
mod inventory_limits;
mod inventory_list;
mod inventory_upsert;
mod inventory_validation;
mod keys_cli;
mod list_cursors;
mod metrics;
mod orders;
mod paid_receipt;
mod portal;
mod portal_screenshot;
mod rate_limit;
mod receipt_authority;
mod receipt_ids;
mod receipt_refunds_and_terminal;
mod receipt_status_posts;
mod receipt_webhooks;
mod receipts_create;
mod reserve_and_split_transactions;
mod reserve_anvil;
mod resource_limits;
mod shop_and_lifecycle;
mod shop_config;
mod spend_anvil;
mod spend_charges;
mod split;
mod storage_races;
mod user_helpers;
mod users;
mod users_live;
mod users_search;
mod webhook_fairness;
mod webhook_receiver;
mod webhook_targets;
