//! Admin sessions through the client: sign-in with a k256 key, whoami, logout, CSRF, and the
//! configuration writes (split, shop settings, fee add-on).

use std::time::{SystemTime, UNIX_EPOCH};

use k256::ecdsa::SigningKey;
use payments_client::{
    AdminRole, AdminSession, Client, DeploySplit, Error, ErrorCode, LoginRequest, PricingUpdate,
    ShopConfigUpdate, wallet_of_key,
};
use payments_core::{AdminLogin, FeePct, SplitRecipient, Wallet};
use payments_server::testing::{TEST_ADMIN_WALLET, spawn_app, test_wallet};

use crate::helpers::{START_SECS, admin_key, signed_in_merchant};

fn status_and_code<T: std::fmt::Debug>(result: Result<T, Error>) -> (u16, Option<ErrorCode>) {
    match result {
        Err(Error::Api(api)) => (api.status, api.code.known()),
        other => panic!("expected an API error, got {other:?}"),
    }
}

fn recipients(merchant: Wallet, merchant_bps: u32, other: Option<Wallet>) -> Vec<SplitRecipient> {
    // The harness's platform recipient, TEST_PLATFORM_RECIPIENT.
    let platform = test_wallet(0x50);
    let mut recipients = vec![SplitRecipient {
        address: merchant,
        shares_bps: merchant_bps,
    }];
    if let Some(other) = other {
        recipients.push(SplitRecipient {
            address: other,
            shares_bps: 9950 - merchant_bps,
        });
    }
    recipients.push(SplitRecipient {
        address: platform,
        shares_bps: 50,
    });
    recipients
}

#[tokio::test]
async fn sign_in_with_key_dates_the_login_now_and_me_shows_the_session() {
    let app = spawn_app().await;
    let now_ms = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis() as i64;
    app.clock.set(now_ms);
    let client = Client::builder(&app.base_url).build().unwrap();

    let session = client.sign_in_with_key(&admin_key()).await.unwrap();
    let me = client.admin_me(&session).await.unwrap();

    let wallet = Wallet::parse(TEST_ADMIN_WALLET).unwrap();
    assert_eq!(session.wallet(), wallet);
    assert_eq!(session.roles(), [AdminRole::Merchant]);
    assert!(!session.is_platform_admin());
    assert_eq!(me.wallet, wallet);
    assert_eq!(me.roles, [AdminRole::Merchant]);
    assert_eq!(me.expires_at, now_ms + 12 * 60 * 60 * 1000);
    let printed = format!("{session:?}");
    assert!(!printed.contains(session.expose_session_token()), "{printed}");
    assert!(!printed.contains(session.expose_csrf_token()), "{printed}");
}

#[tokio::test]
async fn a_login_signed_by_another_key_or_with_a_used_nonce_is_401() {
    let app = spawn_app().await;
    let client = Client::builder(&app.base_url).build().unwrap();
    let wallet = wallet_of_key(&admin_key());
    let impostor = SigningKey::from_slice(&[0x11; 32]).unwrap();
    let login = AdminLogin {
        wallet,
        nonce: client.admin_nonce(wallet).await.unwrap(),
        issued_at_secs: START_SECS,
    };
    let forged = LoginRequest::sign(&login, 31337, &impostor).unwrap();
    let genuine = LoginRequest::sign(&login, 31337, &admin_key()).unwrap();

    let refused = client.admin_login(&forged).await;
    let first = client.admin_login(&genuine).await;
    let replayed = client.admin_login(&genuine).await;

    assert_eq!(status_and_code(refused), (401, Some(ErrorCode::Unauthorized)));
    assert_eq!(first.unwrap().wallet(), wallet);
    assert_eq!(status_and_code(replayed), (401, Some(ErrorCode::Unauthorized)));
}

#[tokio::test]
async fn after_logout_the_old_session_is_401_on_reads_and_writes() {
    let app = spawn_app().await;
    let (client, session) = signed_in_merchant(&app).await;

    client.admin_logout(&session).await.unwrap();
    let me = client.admin_me(&session).await;
    let write = client.deploy_split(&session, &DeploySplit::default()).await;

    assert_eq!(status_and_code(me), (401, Some(ErrorCode::Unauthorized)));
    assert_eq!(status_and_code(write), (401, Some(ErrorCode::Unauthorized)));
    assert!(!client.split().await.unwrap().is_configured());
}

#[tokio::test]
async fn a_write_with_a_wrong_csrf_token_is_403_and_changes_nothing() {
    let app = spawn_app().await;
    let (client, session) = signed_in_merchant(&app).await;
    let forged = AdminSession::from_tokens(
        session.wallet(),
        session.roles().to_vec(),
        session.expose_session_token(),
        "not-the-csrf-token",
    )
    .unwrap();

    let write = client.deploy_split(&forged, &DeploySplit::default()).await;
    let read = client.admin_me(&forged).await;

    assert_eq!(status_and_code(write), (403, Some(ErrorCode::Forbidden)));
    assert!(!client.split().await.unwrap().is_configured());
    assert_eq!(read.unwrap().wallet, session.wallet());
}

#[tokio::test]
async fn a_split_is_deployed_once_and_replaced_only_on_request() {
    let app = spawn_app().await;
    let (client, session) = signed_in_merchant(&app).await;
    let merchant = session.wallet();

    let first = client
        .deploy_split(&session, &DeploySplit::default())
        .await
        .unwrap();
    let again = DeploySplit::with_recipients(recipients(merchant, 5000, Some(test_wallet(0x44))));
    let unchanged = client.deploy_split(&session, &again).await.unwrap();
    let replaced = client
        .deploy_split(&session, &again.clone().replacing())
        .await
        .unwrap();

    assert!(first.split.is_configured());
    assert_eq!(first.split.recipients, recipients(merchant, 9950, None));
    assert!(!first.idempotent && !first.replaced);
    assert!(unchanged.idempotent);
    assert_eq!(unchanged.split, first.split);
    assert!(replaced.replaced);
    assert_eq!(replaced.split.recipients.len(), 3);
    assert_eq!(client.split().await.unwrap(), replaced.split);
    let history = client.split_history().await.unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!(Some(history[0].address), first.split.address);
}

#[tokio::test]
async fn split_recipients_without_the_platform_share_are_invalid_input() {
    let app = spawn_app().await;
    let (client, session) = signed_in_merchant(&app).await;
    let body = DeploySplit::with_recipients(vec![SplitRecipient {
        address: session.wallet(),
        shares_bps: 10_000,
    }]);

    let error = client.deploy_split(&session, &body).await.unwrap_err();

    let Error::Api(api) = error else {
        panic!("expected an API error, got {error:?}")
    };
    assert_eq!(
        (api.status, api.code.known()),
        (400, Some(ErrorCode::InvalidInput))
    );
    assert_eq!(api.field.as_deref(), Some("recipients"));
}

#[tokio::test]
async fn shop_and_pricing_updates_read_back_through_the_key() {
    let app = spawn_app().await;
    let (client, session) = signed_in_merchant(&app).await;
    let shop = ShopConfigUpdate::new()
        .brand_name("Blue Mugs")
        .brand_key("blue-mugs")
        .default_jurisdiction("US-CA");

    let saved = client.update_shop_config(&session, &shop).await.unwrap();
    let pricing = client
        .update_pricing_config(&session, &PricingUpdate::new(FeePct::parse("1.5").unwrap()))
        .await
        .unwrap();

    assert_eq!(saved.wallet, session.wallet());
    assert_eq!(saved.brand_name, "Blue Mugs");
    assert_eq!(saved.brand_key.as_deref(), Some("blue-mugs"));
    assert_eq!(saved.default_jurisdiction.as_deref(), Some("US-CA"));
    assert_eq!(pricing.merchant_add_on_pct, FeePct::parse("1.5").unwrap());
    assert_eq!(pricing.effective_fee_pct, FeePct::parse("2").unwrap());
    assert_eq!(client.shop_config().await.unwrap().brand_name, "Blue Mugs");
    assert_eq!(client.pricing_config().await.unwrap(), pricing);
}

#[tokio::test]
async fn a_merchant_session_cannot_act_for_another_wallet() {
    let app = spawn_app().await;
    let (client, session) = signed_in_merchant(&app).await;

    let split = client
        .deploy_split(&session, &DeploySplit::default().for_wallet(app.wallet))
        .await;
    let shop = client
        .update_shop_config(
            &session,
            &ShopConfigUpdate::new().brand_name("X").for_wallet(app.wallet),
        )
        .await;

    assert_eq!(status_and_code(split), (403, Some(ErrorCode::Forbidden)));
    assert_eq!(status_and_code(shop), (403, Some(ErrorCode::Forbidden)));
}
