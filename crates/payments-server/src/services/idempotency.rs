//! Keeping the answer of a claimed use case: its transaction committed the data with the claim (naming the
//! resource it made) and returned the data; the edge renders the answer, and this keeps it under the claim
//! with a second, idempotency-only write. A keep that fails loses nothing: a replay of the key finds the
//! committed claim without a response and answers from the named resource (docs/storage.md).

use std::sync::Arc;

use crate::store::{Committed, IdempotencyClaim, IdempotencyRepository, IdempotentResponse};

/// What a claimed use case committed, with the claim its answer is to be kept under (`None` without an
/// `Idempotency-Key`).
#[derive(Debug)]
pub(crate) struct Outcome<T> {
    pub(crate) committed: Committed<T>,
    pub(crate) claim: Option<IdempotencyClaim>,
}

impl<T> Outcome<T> {
    pub(crate) fn new(committed: Committed<T>, claim: Option<IdempotencyClaim>) -> Self {
        Outcome { committed, claim }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct IdempotencyService {
    pub(crate) repository: Arc<dyn IdempotencyRepository>,
}

impl IdempotencyService {
    /// Keeps the rendered answer (`status`, `body`) under `claim`. A failure is logged, not answered: the
    /// data is committed, and a replay answers from the resource the claim names.
    pub(crate) async fn keep(&self, claim: &IdempotencyClaim, status: u16, body: &[u8]) {
        let response = IdempotentResponse {
            request_hash: claim.request_hash.clone(),
            status,
            body: body.to_vec(),
        };
        match self.repository.keep_response(claim, &response).await {
            Ok(true) => {}
            Ok(false) => tracing::debug!(scope = claim.scope, "the idempotency key was answered already"),
            Err(error) => {
                tracing::warn!(scope = claim.scope, %error, "keeping an idempotent response failed; a replay answers from the resource");
            }
        }
    }
}
