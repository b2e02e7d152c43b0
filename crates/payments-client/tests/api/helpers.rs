//! Shared setup: a server per test, clients for its keys, and a merchant signed in as admin.

use k256::ecdsa::SigningKey;
use payments_client::{
    AdminSession, Client, CreateOrder, CreateReceipt, DeploySplit, OrderItem, PricingUpdate, Receipt,
    ReceiptLine, UpsertInventoryItem, wallet_of_key,
};
use payments_core::{Cents, FeePct, TaxRate, Wallet};
use payments_server::testing::{TEST_ADMIN_PRIVATE_KEY, TEST_START_MS, TestApp, test_wallet};

/// A client of `app` sending `key`.
pub(crate) fn client_with_key(app: &TestApp, key: &str) -> Client {
    Client::builder(&app.base_url)
        .subscription_key(key)
        .build()
        .unwrap()
}

/// A client of `app` with the merchant key holding every scope.
pub(crate) fn client(app: &TestApp) -> Client {
    client_with_key(app, &app.key)
}

/// A 1x1 transparent PNG.
pub(crate) const TINY_PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00,
    0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00,
    0x00, 0x00, 0x0b, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x60, 0x00, 0x02, 0x00, 0x00, 0x05, 0x00,
    0x01, 0x7a, 0x5e, 0xab, 0x3f, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

/// The scopes a merchant's own integration key holds in the admin tests.
const MERCHANT_SCOPES: &str =
    "inventory:read,inventory:write,orders:create,receipts:read,receipts:write,shop:read,split:read";

/// The well-known admin test key of the harness.
pub(crate) fn admin_key() -> SigningKey {
    SigningKey::from_slice(&TEST_ADMIN_PRIVATE_KEY).unwrap()
}

/// Unix seconds of the harness clock's start, the `issuedAt` the server accepts.
pub(crate) const START_SECS: u64 = (TEST_START_MS / 1000) as u64;

/// The admin test wallet signed in through the client, and a client with a subscription key of the same
/// wallet (every scope its integration needs), so a test can use admin and Dev routes of one merchant.
pub(crate) async fn signed_in_merchant(app: &TestApp) -> (Client, AdminSession) {
    let key = app.create_key(wallet_of_key(&admin_key()), MERCHANT_SCOPES).await;
    let client = client_with_key(app, &key.key);
    let session = client
        .sign_in_with_key_at(&admin_key(), START_SECS)
        .await
        .unwrap();
    (client, session)
}

/// A signed-in merchant with a split (so its receipts get their own deposit address) and its receipt `id` of
/// `lines`.
pub(crate) async fn receipt_with_deposit(app: &TestApp, id: &str, lines: Vec<ReceiptLine>) -> Client {
    let (client, session) = signed_in_merchant(app).await;
    client
        .deploy_split(&session, &DeploySplit::default())
        .await
        .unwrap();
    client
        .create_receipt(&CreateReceipt::new(id, lines))
        .await
        .unwrap();
    client
}

/// The wallet refunds are sent to.
pub(crate) fn test_buyer() -> Wallet {
    test_wallet(0x33)
}

/// Configures the merchant's split and a 1.5 % fee add-on, then orders two taxable mugs at 20.00 with a
/// 10 % tax rate: 40.00 + 4.00 tax + 2 % of 44.00 (0.88) = 44.88.
pub(crate) async fn order_of_two_mugs(client: &Client, session: &AdminSession) -> Receipt {
    client
        .deploy_split(session, &DeploySplit::default())
        .await
        .unwrap();
    client
        .update_pricing_config(session, &PricingUpdate::new(FeePct::parse("1.5").unwrap()))
        .await
        .unwrap();
    let mug = UpsertInventoryItem::new("MUG-1", "Blue mug", Cents::new(2000), -1).taxable(true);
    client.upsert_inventory_item(&mug).await.unwrap();
    let mut order = CreateOrder::new(vec![OrderItem::sku("MUG-1", 2)]);
    order.tax_rate = Some(TaxRate::parse("0.1").unwrap());
    client.create_order(&order).await.unwrap()
}
