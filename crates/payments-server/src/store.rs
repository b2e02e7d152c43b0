//! The store lives in `payments-store`; these re-exports keep the server's `crate::store::…` paths, with the
//! receipt use cases' decisions refusing with the services' errors.

pub(crate) use payments_store::*;

use crate::services::receipts::{OrderError, ReceiptError};

/// Every repository, with the receipt use cases deciding as the services do.
pub(crate) type Repositories = payments_store::Repositories<OrderError, ReceiptError>;
/// The receipt repository as the services hold it.
pub(crate) type Receipts = dyn ReceiptRepository<OrderError, ReceiptError>;
/// A sale decided by the receipt service.
pub(crate) type SaleTx = payments_store::SaleTx<OrderError>;
/// A status change decided by the receipt service.
pub(crate) type TransitionTx = payments_store::TransitionTx<ReceiptError>;
/// The receipt service's decision of a status change.
pub(crate) type TransitionDecision = payments_store::TransitionDecision<ReceiptError>;

/// Opens the database (applying migrations) and serves every repository from it, for the services.
///
/// # Errors
/// When the database cannot be reached, opened or migrated.
pub(crate) async fn open(location: &DatabaseLocation, now_ms: i64) -> Result<Repositories, StoreError> {
    payments_store::open(location, now_ms).await
}
