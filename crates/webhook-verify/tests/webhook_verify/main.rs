//! Integration tests of `webhook-verify`, one binary to keep linking cheap.

// A test helper that panics is reporting a failure, the same as an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

#[cfg(feature = "serde")]
mod endpoint_secret;
#[cfg(feature = "serde")]
mod envelope;
mod freshness;
mod fuzz;
mod headers;
#[cfg(all(feature = "serde", feature = "test-helpers"))]
mod interop;
mod keys;
#[cfg(feature = "serde")]
mod receipt_event;
mod standard_webhooks;
#[cfg(feature = "serde")]
mod subscription_event;
#[cfg(feature = "test-helpers")]
mod test_helpers;
mod vectors;
mod x_service;
