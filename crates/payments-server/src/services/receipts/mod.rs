//! Receipt use cases: create, read, change status (with its webhook), deliver webhooks, and the payment
//! page's lookups. Every merchant-facing query is partitioned by the caller's wallet.

mod admin_sales;
mod attempt_error;
mod chain_events;
mod claimed_payment;
mod create;
mod delivery;
mod deposit_transfers;
mod dispatcher;
mod error;
mod expiry;
mod finality;
mod in_flight;
mod order;
mod page_checkout;
mod read;
mod refund;
mod refund_confirmations;
mod sale;
mod service;
mod transition;
mod view_stamp;
mod webhook_body;

pub(crate) use chain_events::{ConfirmedPayment, FundsReceived};
pub(crate) use dispatcher::{Dispatcher, start_dispatcher};
pub(crate) use error::{OrderError, ReceiptError};
pub(crate) use page_checkout::{PageStep, accepted_or_refused};
#[cfg(test)]
pub(crate) use read::PayableReceipt;
pub(crate) use service::{Deposits, IdempotencyRequest, ReceiptService, sale_link};
pub(crate) use transition::StatusOutcome;
pub(crate) use view_stamp::ViewStamp;
