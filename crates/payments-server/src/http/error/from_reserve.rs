//! Conversions of the chain-reading routes' errors (split transactions, reserve, reconcile) into [`ApiError`].

use crate::chain::ChainError;
use crate::http::error::ApiError;
use crate::services::reconcile::ReconcileError;
use crate::services::reserve::ReserveError;
use crate::services::split_transactions::SplitTransactionsError;

impl From<ChainError> for ApiError {
    fn from(error: ChainError) -> Self {
        match error {
            // A read the node refused (a token without `balanceOf`, a range too wide) is as unavailable to
            // the caller as a node that does not answer: retry later or fix the configuration.
            ChainError::Unavailable(_) | ChainError::Reverted(_) | ChainError::NotConfigured(_) => {
                ApiError::ChainUnavailable {
                    reason: error.to_string(),
                }
            }
        }
    }
}

impl From<SplitTransactionsError> for ApiError {
    fn from(error: SplitTransactionsError) -> Self {
        match error {
            SplitTransactionsError::NotMerchantsAddress(_) => ApiError::Forbidden {
                message: error.to_string(),
            },
            SplitTransactionsError::Chain(chain) => chain.into(),
            SplitTransactionsError::Store(store) => store.into(),
        }
    }
}

impl From<ReconcileError> for ApiError {
    fn from(error: ReconcileError) -> Self {
        match error {
            ReconcileError::Chain(chain) => chain.into(),
            ReconcileError::Store(store) => store.into(),
        }
    }
}

impl From<ReserveError> for ApiError {
    fn from(error: ReserveError) -> Self {
        match error {
            ReserveError::Chain(chain) => chain.into(),
            ReserveError::Store(store) => store.into(),
            ReserveError::Money(_) => ApiError::internal(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use hyper::StatusCode;
    use payments_core::ErrorCode;

    use super::*;

    #[test]
    fn an_unavailable_chain_is_a_503_that_asks_for_a_retry() {
        let error = ApiError::from(ChainError::Unavailable(
            "connection refused to 10.0.0.7".to_owned(),
        ));

        let response = error.into_response();

        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(response.headers()["retry-after"], "5");
    }

    #[test]
    fn chain_errors_answer_the_chain_unavailable_code() {
        for error in [
            ChainError::Unavailable("timeout".to_owned()),
            ChainError::Reverted("execution reverted".to_owned()),
            ChainError::NotConfigured("no relayer".to_owned()),
        ] {
            assert_eq!(ApiError::from(error).code(), ErrorCode::ChainUnavailable);
        }
    }
}
