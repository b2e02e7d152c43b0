//! Keeping an idempotent response: the second, idempotency-only write after a use case's transaction
//! committed its data with the claim.

use async_trait::async_trait;

use crate::{IdempotencyClaim, IdempotentResponse, StoreError};

/// Keeps the answers of claimed use cases. The use case's transaction records its claim as committed
/// together with the data (naming the resource it made) and returns the data; the caller renders the answer
/// and keeps it here. A process that stops in between leaves a committed claim without a response: a replay
/// then answers from the named resource and keeps that answer instead (see docs/storage.md).
#[async_trait]
pub trait IdempotencyRepository: Send + Sync + std::fmt::Debug {
    /// Keeps `response` under `claim` (same wallet, scope, key and request body) when its committed claim has
    /// no response yet; false when there is no such claim (expired, or answered already: the first kept
    /// answer stays).
    async fn keep_response(
        &self,
        claim: &IdempotencyClaim,
        response: &IdempotentResponse,
    ) -> Result<bool, StoreError>;
}
