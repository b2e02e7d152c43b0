//! User discovery, a user's own writes, GraphQL and the billing balance through the client.

use k256::ecdsa::SigningKey;
use payments_client::{
    AdminSession, Client, Error, ErrorCode, Heartbeat, PostStatus, ProfileUpdate, UserSearch, wallet_of_key,
};
use payments_core::{Cents, ReceiptStatus};
use payments_server::testing::{TestApp, spawn_app};
use serde_json::json;

use crate::helpers::{START_SECS, client, order_of_two_mugs, signed_in_merchant};

fn user_key(n: u8) -> SigningKey {
    SigningKey::from_slice(&[n; 32]).unwrap()
}

async fn signed_in_user(app: &TestApp, n: u8, name: &str) -> AdminSession {
    let client = client(app);
    let session = client
        .sign_in_with_key_at(&user_key(n), START_SECS)
        .await
        .unwrap();
    let profile = ProfileUpdate::new(name).languages(vec!["EN".to_owned()]);
    let saved = client.save_profile(&session, &profile).await.unwrap();
    assert_eq!(
        (saved.display_name.as_str(), saved.languages.clone()),
        (name, vec!["en".to_owned()])
    );
    session
}

#[tokio::test]
async fn users_write_their_profile_heartbeat_and_follows_and_others_find_them() {
    let app = spawn_app().await;
    let client = client(&app);
    let ada = signed_in_user(&app, 0x21, "Ada").await;
    let bob = signed_in_user(&app, 0x22, "Bob").await;

    let beat = client.heartbeat(&ada, &Heartbeat::new(true, true)).await.unwrap();
    let followed = client.follow(&ada, bob.wallet()).await.unwrap();
    let again = client.follow(&ada, bob.wallet()).await.unwrap();

    assert!(beat.live);
    assert_eq!(
        (followed.wallet, followed.following, followed.changed),
        (bob.wallet(), true, true)
    );
    assert!(!again.changed);
    let found = client.search_users(&UserSearch::new().q("BO")).await.unwrap();
    assert_eq!(
        found
            .users
            .iter()
            .map(|user| user.display_name.as_str())
            .collect::<Vec<_>>(),
        ["Bob"]
    );
    assert_eq!((found.total, found.degraded), (Some(1), None));
    let live = client.live_users(Some(10)).await.unwrap();
    assert_eq!(
        live.live.iter().map(|user| user.wallet).collect::<Vec<_>>(),
        [ada.wallet()]
    );
    assert_eq!(client.get_user(bob.wallet()).await.unwrap().display_name, "Bob");
    let unfollowed = client.unfollow(&ada, bob.wallet()).await.unwrap();
    assert_eq!((unfollowed.following, unfollowed.changed), (false, true));
}

#[tokio::test]
async fn an_unknown_user_and_a_refused_profile_are_typed_errors() {
    let app = spawn_app().await;
    let client = client(&app);
    let session = client
        .sign_in_with_key_at(&user_key(0x21), START_SECS)
        .await
        .unwrap();

    let missing = client.get_user(wallet_of_key(&user_key(0x22))).await;
    let refused = client.save_profile(&session, &ProfileUpdate::new("")).await;

    match (missing, refused) {
        (Err(Error::Api(missing)), Err(Error::Api(refused))) => {
            assert_eq!(
                (missing.status, missing.code.known()),
                (404, Some(ErrorCode::NotFound))
            );
            assert_eq!(
                (refused.status, refused.code.known()),
                (400, Some(ErrorCode::InvalidInput))
            );
        }
        other => panic!("expected two API errors, got {other:?}"),
    }
}

#[tokio::test]
async fn graphql_answers_data_and_errors_over_post_and_get() {
    let app = spawn_app().await;
    let client = client(&app);
    let ada = signed_in_user(&app, 0x21, "Ada").await;

    let answer = client
        .graphql(
            "query($w: String!) { user(wallet: $w) { displayName } }",
            Some(&json!({"w": ada.wallet()})),
        )
        .await
        .unwrap();
    let by_get = client
        .graphql_get("{ leaderboard(first: 1) { displayName } }")
        .await
        .unwrap();
    let mutation = client.graphql("mutation { anything }", None).await.unwrap();
    let too_big = client
        .graphql("{ liveUsers(first: 500) { wallet } }", None)
        .await
        .unwrap();

    assert_eq!(answer.data, json!({"user": {"displayName": "Ada"}}));
    assert!(answer.errors.is_empty());
    assert_eq!(by_get.data, json!({"leaderboard": [{"displayName": "Ada"}]}));
    assert!(mutation.data.is_null() && !mutation.errors.is_empty());
    assert_eq!(too_big.errors[0].code(), Some("invalid_input"));
}

#[tokio::test]
async fn the_billing_balance_shows_the_platform_share_of_paid_receipts() {
    let app = spawn_app().await;
    let (client, session) = signed_in_merchant(&app).await;
    let order = order_of_two_mugs(&client, &session).await;
    let buyer = wallet_of_key(&user_key(0x21));
    let paid = PostStatus::new(&order.receipt_id, session.wallet(), ReceiptStatus::Paid).buyer_wallet(buyer);
    client
        .post_receipt_status_as_admin(&session, &paid)
        .await
        .unwrap();

    let balance = client.billing_balance().await.unwrap();

    // 0.50% of 44.88 = 0.2244 -> 0.22, not settled yet.
    assert_eq!(balance.wallet, session.wallet());
    assert_eq!(
        (balance.accrued_usd, balance.settled_usd, balance.remaining_usd),
        (Cents::new(22), Cents::ZERO, Cents::new(22))
    );
    assert_eq!(
        (balance.receipts.paid_count, balance.receipts.paid_usd),
        (1, Cents::new(4488))
    );
    assert_eq!(balance.subscriptions.accrued_usd, Cents::ZERO);
    let buyer_session = Client::builder(&app.base_url).build().unwrap();
    let buyer_login = buyer_session
        .sign_in_with_key_at(&user_key(0x21), START_SECS)
        .await
        .unwrap();
    let me = buyer_session
        .heartbeat(&buyer_login, &Heartbeat::new(false, false))
        .await
        .unwrap();
    assert_eq!(me.xp, 44, "the buyer's xp: whole dollars it paid");
}
