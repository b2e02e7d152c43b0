//! A create whose answer is lost on the way back (the server did the work, the connection then dropped) is
//! retried by the client under the idempotency key it generated for the call, and the real server replays
//! the first answer: one plan, one subscription.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use payments_client::{Client, RetryPolicy, SubscriptionSelector};
use payments_server::testing::{TestApp, spawn_app};
use tokio::io::AsyncReadExt as _;
use tokio::net::{TcpListener, TcpStream};

use crate::helpers::client;
use crate::subscriptions::{signed_request, weekly_plan};

/// A proxy in front of `app`: on its first connection it forwards the request but closes the connection as
/// soon as the server starts answering, so the answer is lost after the work was done; later connections
/// pass through. Answers the proxy's base URL and how many answers it lost.
async fn losing_the_first_answer(app: &TestApp) -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let upstream = app
        .base_url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    let lost = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&lost);
    tokio::spawn(async move {
        let mut first = true;
        while let Ok((mut caller, _)) = listener.accept().await {
            let mut server = TcpStream::connect(&upstream).await.unwrap();
            if std::mem::take(&mut first) {
                let counter = Arc::clone(&counter);
                tokio::spawn(async move {
                    let (mut from_caller, _) = caller.split();
                    let (mut from_server, mut to_server) = server.split();
                    let forward = tokio::io::copy(&mut from_caller, &mut to_server);
                    let mut answer = [0_u8; 1];
                    tokio::select! {
                        _ = forward => {}
                        read = from_server.read(&mut answer) => {
                            if read.unwrap_or(0) > 0 {
                                counter.fetch_add(1, Ordering::SeqCst);
                            }
                        }
                    }
                    // Both connections close here: the caller never sees the answer.
                });
            } else {
                tokio::spawn(async move {
                    let _ = tokio::io::copy_bidirectional(&mut caller, &mut server).await;
                });
            }
        }
    });
    (url, lost)
}

/// A client of `url` with the test merchant's key and quick retries.
fn retrying_client(app: &TestApp, url: &str) -> Client {
    Client::builder(url)
        .subscription_key(app.key.as_str())
        .retries(RetryPolicy::exponential(3).backoff(Duration::from_millis(1), Duration::from_millis(5)))
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_plan_create_whose_answer_was_lost_is_retried_and_makes_one_plan() {
    let app = spawn_app().await;
    let (url, lost) = losing_the_first_answer(&app).await;

    let plan = retrying_client(&app, &url)
        .create_plan(&weekly_plan())
        .await
        .unwrap();

    assert_eq!(lost.load(Ordering::SeqCst), 1);
    let plans = client(&app).list_plans(app.wallet).await.unwrap();
    assert_eq!(plans, vec![plan]);
}

#[tokio::test]
async fn a_subscription_whose_answer_was_lost_is_retried_and_makes_one_subscription() {
    let app = spawn_app().await;
    let plan = client(&app).create_plan(&weekly_plan()).await.unwrap();
    let request = signed_request(&app, &plan.plan_id, 5);
    let (url, lost) = losing_the_first_answer(&app).await;

    // Without its key the retry would be refused as permission_reused: the first attempt stored it.
    let subscription = retrying_client(&app, &url).subscribe(&request).await.unwrap();

    assert_eq!(lost.load(Ordering::SeqCst), 1);
    let stored = client(&app)
        .subscription_status(&SubscriptionSelector::Customer(request.customer_wallet))
        .await
        .unwrap()
        .subscriptions;
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].subscription_id, subscription.subscription_id);
}
