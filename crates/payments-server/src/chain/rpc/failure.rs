//! How a node's failures become [`ChainError`]s: the deadline every call runs under, a JSON-RPC refusal told
//! apart from an unavailable node, and messages told without the node's URL (it may carry an API key).

use std::future::Future;
use std::time::Duration;

use super::redaction::without_urls;
use crate::chain::ChainError;

pub(super) async fn within<T>(
    deadline: Duration,
    call: impl Future<Output = Result<T, ChainError>>,
) -> Result<T, ChainError> {
    tokio::time::timeout(deadline, call)
        .await
        .unwrap_or_else(|_| Err(ChainError::Unavailable(format!("no answer within {deadline:?}"))))
}

/// A JSON-RPC error answer (e.g. `execution reverted` at gas estimation) is the chain refusing; anything else
/// (connection, timeout, garbage) is the node being unavailable.
pub(super) fn rpc_error(error: alloy::transports::TransportError) -> ChainError {
    match error.as_error_resp() {
        Some(answer) => ChainError::Reverted(answer.message.to_string()),
        None => unavailable(&error),
    }
}

/// A transport failure, told without the node's URL.
pub(super) fn unavailable(error: &impl std::fmt::Display) -> ChainError {
    ChainError::Unavailable(without_urls(&error.to_string()))
}

pub(super) fn contract_error(error: alloy::contract::Error) -> ChainError {
    match error {
        alloy::contract::Error::TransportError(error) => rpc_error(error),
        other => ChainError::Reverted(without_urls(&other.to_string())),
    }
}
