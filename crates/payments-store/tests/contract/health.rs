//! [`HealthRepository`] and the availability switch every repository checks first.

use crate::Repositories;
use crate::fixtures;
use payments_store::{StoreError, TxError};

pub(crate) async fn a_switched_off_datastore_answers_unavailable_everywhere(repos: Repositories) {
    let merchant = fixtures::wallet('a');
    repos.health.check_health().await.unwrap();

    repos.availability.set_available(false);

    assert!(matches!(
        repos.health.check_health().await,
        Err(StoreError::Unavailable(_))
    ));
    assert!(matches!(repos.keys.list().await, Err(StoreError::Unavailable(_))));
    assert!(matches!(
        repos.shops.fetch_shop(merchant).await,
        Err(StoreError::Unavailable(_))
    ));
    assert!(matches!(
        repos
            .users
            .search(&payments_domain::user::UserSearch::top(10))
            .await,
        Err(StoreError::Unavailable(_))
    ));
    assert!(matches!(
        repos.billing.receipt_fee_base(merchant).await,
        Err(StoreError::Unavailable(_))
    ));
    let sale = fixtures::receipt_sale(fixtures::new_receipt(merchant, "order-1", 100));
    assert!(matches!(
        repos.receipts.create(sale).await,
        Err(TxError::Store(StoreError::Unavailable(_)))
    ));
    repos.availability.set_available(true);
    assert!(repos.receipts.list(merchant, 10).await.unwrap().is_empty());
}
