//! Client behaviour the real server cannot be made to show on demand (a 503 on the first tries only, a
//! connection dropped mid-request, a status or error code from a newer server), against wiremock.

mod forward_compat;
#[cfg(test)]
mod idempotency;
mod retries;
#[cfg(test)]
mod support;
mod timeouts_and_decoding;
