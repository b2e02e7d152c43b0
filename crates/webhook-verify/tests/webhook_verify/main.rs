//! Integration tests of `webhook-verify`, one binary to keep linking cheap.

// A test helper that panics is reporting a failure, the same as an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

#[cfg(feature = "serde")]
mod event;
mod freshness;
mod headers;
mod keys;
mod no_panic;
mod standard_webhooks;
#[cfg(feature = "test-helpers")]
mod test_helpers;
mod vectors;
mod x_service;
