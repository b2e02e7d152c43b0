//! [`WebhookEndpointRepository`] over PostgreSQL: every method one transaction on a pooled connection, retried when busy.

use async_trait::async_trait;
use payments_core::Wallet;

use crate::postgres::{PgStore, endpoints};
use crate::{
    DeliveryQuery, EndpointChange, EndpointDeliveryLog, EndpointRefused, MerchantEvent, NewEndpoint,
    StoreError, StoredEndpoint, WebhookEndpointRepository,
};
use payments_domain::webhook_endpoint::EndpointId;

#[async_trait]
impl WebhookEndpointRepository for PgStore {
    async fn create_endpoint(
        &self,
        endpoint: &NewEndpoint,
        max_per_merchant: usize,
    ) -> Result<Result<StoredEndpoint, EndpointRefused>, StoreError> {
        self.run(|client| Box::pin(endpoints::create(client, endpoint, max_per_merchant)))
            .await
    }

    async fn list_endpoints(&self, wallet: Wallet) -> Result<Vec<StoredEndpoint>, StoreError> {
        self.run(|client| Box::pin(endpoints::list(client, wallet))).await
    }

    async fn fetch_endpoint(
        &self,
        wallet: Wallet,
        id: &EndpointId,
    ) -> Result<Option<StoredEndpoint>, StoreError> {
        self.run(|client| Box::pin(endpoints::fetch(client, wallet, id)))
            .await
    }

    async fn update_endpoint(
        &self,
        wallet: Wallet,
        id: &EndpointId,
        change: &EndpointChange,
        now_ms: i64,
    ) -> Result<Option<StoredEndpoint>, StoreError> {
        self.run(|client| Box::pin(endpoints::update(client, wallet, id, change, now_ms)))
            .await
    }

    async fn delete_endpoint(&self, wallet: Wallet, id: &EndpointId) -> Result<bool, StoreError> {
        self.run(|client| Box::pin(endpoints::delete(client, wallet, id)))
            .await
    }

    async fn rotate_endpoint_secret(
        &self,
        wallet: Wallet,
        id: &EndpointId,
        sealed_secret: &[u8],
        previous_expires_at: i64,
        now_ms: i64,
    ) -> Result<Option<StoredEndpoint>, StoreError> {
        self.run(|client| {
            Box::pin(endpoints::rotate(
                client,
                wallet,
                id,
                sealed_secret,
                previous_expires_at,
                now_ms,
            ))
        })
        .await
    }

    async fn endpoint_deliveries(
        &self,
        wallet: Wallet,
        id: &EndpointId,
        query: &DeliveryQuery,
    ) -> Result<Option<Vec<EndpointDeliveryLog>>, StoreError> {
        self.run(|client| Box::pin(endpoints::deliveries(client, wallet, id, query)))
            .await
    }

    async fn redeliver_endpoint_delivery(
        &self,
        wallet: Wallet,
        id: &EndpointId,
        delivery: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        self.run(|client| Box::pin(endpoints::redeliver(client, wallet, id, delivery, now_ms)))
            .await
    }

    async fn recover_endpoint(
        &self,
        wallet: Wallet,
        id: &EndpointId,
        since_ms: i64,
        now_ms: i64,
    ) -> Result<Option<u64>, StoreError> {
        self.run(|client| Box::pin(endpoints::recover(client, wallet, id, since_ms, now_ms)))
            .await
    }

    async fn send_event(
        &self,
        event: &MerchantEvent,
        only: Option<&EndpointId>,
    ) -> Result<Option<u64>, StoreError> {
        self.run(|client| Box::pin(endpoints::send_event(client, event, only)))
            .await
    }
}
