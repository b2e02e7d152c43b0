//! [`WebhookEndpointRepository`] over SQLite: reads on reader connections, every write one writer transaction.

use async_trait::async_trait;
use payments_core::Wallet;

use crate::sqlite::{SqliteStore, endpoints};
use crate::{
    DeliveryQuery, EndpointChange, EndpointDeliveryLog, EndpointRefused, MerchantEvent, NewEndpoint,
    StoreError, StoredEndpoint, WebhookEndpointRepository,
};
use payments_domain::webhook_endpoint::EndpointId;

#[async_trait]
impl WebhookEndpointRepository for SqliteStore {
    async fn create_endpoint(
        &self,
        endpoint: &NewEndpoint,
        max_per_merchant: usize,
    ) -> Result<Result<StoredEndpoint, EndpointRefused>, StoreError> {
        let endpoint = endpoint.clone();
        self.write(move |conn| endpoints::create(conn, &endpoint, max_per_merchant))
            .await
    }

    async fn list_endpoints(&self, wallet: Wallet) -> Result<Vec<StoredEndpoint>, StoreError> {
        self.read(move |conn| endpoints::list(conn, wallet)).await
    }

    async fn fetch_endpoint(
        &self,
        wallet: Wallet,
        id: &EndpointId,
    ) -> Result<Option<StoredEndpoint>, StoreError> {
        let id = id.clone();
        self.read(move |conn| endpoints::fetch(conn, wallet, &id)).await
    }

    async fn update_endpoint(
        &self,
        wallet: Wallet,
        id: &EndpointId,
        change: &EndpointChange,
        now_ms: i64,
    ) -> Result<Option<StoredEndpoint>, StoreError> {
        let (id, change) = (id.clone(), change.clone());
        self.write(move |conn| endpoints::update(conn, wallet, &id, &change, now_ms))
            .await
    }

    async fn delete_endpoint(&self, wallet: Wallet, id: &EndpointId) -> Result<bool, StoreError> {
        let id = id.clone();
        self.write(move |conn| endpoints::delete(conn, wallet, &id)).await
    }

    async fn rotate_endpoint_secret(
        &self,
        wallet: Wallet,
        id: &EndpointId,
        sealed_secret: &[u8],
        previous_expires_at: i64,
        now_ms: i64,
    ) -> Result<Option<StoredEndpoint>, StoreError> {
        let (id, sealed) = (id.clone(), sealed_secret.to_vec());
        self.write(move |conn| endpoints::rotate(conn, wallet, &id, &sealed, previous_expires_at, now_ms))
            .await
    }

    async fn endpoint_deliveries(
        &self,
        wallet: Wallet,
        id: &EndpointId,
        query: &DeliveryQuery,
    ) -> Result<Option<Vec<EndpointDeliveryLog>>, StoreError> {
        let (id, query) = (id.clone(), query.clone());
        self.read(move |conn| endpoints::deliveries(conn, wallet, &id, &query))
            .await
    }

    async fn redeliver_endpoint_delivery(
        &self,
        wallet: Wallet,
        id: &EndpointId,
        delivery: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let (id, delivery) = (id.clone(), delivery.to_owned());
        self.write(move |conn| endpoints::redeliver(conn, wallet, &id, &delivery, now_ms))
            .await
    }

    async fn recover_endpoint(
        &self,
        wallet: Wallet,
        id: &EndpointId,
        since_ms: i64,
        now_ms: i64,
    ) -> Result<Option<u64>, StoreError> {
        let id = id.clone();
        self.write(move |conn| endpoints::recover(conn, wallet, &id, since_ms, now_ms))
            .await
    }

    async fn send_event(
        &self,
        event: &MerchantEvent,
        only: Option<&EndpointId>,
    ) -> Result<Option<u64>, StoreError> {
        let (event, only) = (event.clone(), only.cloned());
        self.write(move |conn| endpoints::send_event(conn, &event, only.as_ref()))
            .await
    }
}
