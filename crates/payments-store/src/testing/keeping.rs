//! The edge's part of a claimed use case, as the suites play it: run the use case's transaction, then render
//! the committed (or recovered) value and keep the answer with the second, idempotency-only write.

use crate::{Committed, Sale, SaleRefused, TransitionRefused, Transitioned, TxError};

use super::fixtures::{Refusal, Repositories, SaleTx, TransitionTx, created_response, transition_response};

/// Runs `sale` and keeps [`created_response`] for what it committed or recovered.
///
/// # Errors
/// The transaction's own.
pub async fn create(
    repos: &Repositories,
    sale: SaleTx,
) -> Result<Committed<Sale>, TxError<SaleRefused<Refusal>>> {
    let claim = sale.claim.clone();
    let committed = repos.receipts.create(sale).await?;
    if let (Some(claim), Committed::Fresh(sale) | Committed::Recovered(sale)) = (&claim, &committed) {
        let response = created_response(&sale.receipt, &claim.request_hash);
        keep(repos, claim, &response).await;
    }
    Ok(committed)
}

/// Runs `change` and keeps [`transition_response`] for what it committed or recovered.
///
/// # Errors
/// The transaction's own.
pub async fn transition(
    repos: &Repositories,
    change: TransitionTx,
) -> Result<Committed<Transitioned>, TxError<TransitionRefused<Refusal>>> {
    let claim = change.claim.clone();
    let committed = repos.receipts.transition(change).await?;
    if let (Some(claim), Committed::Fresh(done) | Committed::Recovered(done)) = (&claim, &committed) {
        let response = transition_response(done, &claim.request_hash);
        keep(repos, claim, &response).await;
    }
    Ok(committed)
}

async fn keep(repos: &Repositories, claim: &crate::IdempotencyClaim, response: &crate::IdempotentResponse) {
    if let Err(error) = repos.idempotency.keep_response(claim, response).await {
        panic!("keeping the answer under {}: {error}", claim.key);
    }
}
