//! Receipt use cases: create, read, change status (with its webhook), deliver webhooks, and the payment
//! page's lookups. Every merchant-facing query is partitioned by the caller's wallet.

mod admin_sales;
mod create;
mod delivery;
mod dispatcher;

mod order;
mod read;
mod runtime;
mod sale;
mod transition;
mod webhook_body;

pub(crate) use crate::domain::receipt::{OrderError, ReceiptError};
pub(crate) use admin_sales::{create_terminal, refund};
pub(crate) use create::{create, link_for, recipient};
pub(crate) use dispatcher::{DispatcherHandle, start_dispatcher};
pub(crate) use order::create_order;
/// For the payment page (`GET /portal/{id}`): the lookup by id and the `link_opened` status change.
pub(crate) use read::fetch_for_portal;
pub(crate) use read::{fetch, list, list_deliveries, redeliver};
pub(crate) use runtime::ReceiptRuntime;
pub(crate) use transition::record_link_opened;
pub(crate) use transition::{StatusOutcome, post_status};
