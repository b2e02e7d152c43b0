//! [`KeyRepository`]: subscription keys by hash and id, first-key bootstrap, rotation and revocation.

use std::sync::Arc;

use tokio::sync::Barrier;

use crate::Repositories;
use crate::fixtures::{T0, wallet};
use payments_domain::api_key::{KeyHash, SubscriptionId};
use payments_domain::scope::Scopes;
use payments_domain::subscription::NewSubscription;

fn subscription(id: &str, key: &str) -> NewSubscription {
    NewSubscription {
        id: SubscriptionId::new(id),
        key_hash: KeyHash::of(key),
        wallet: wallet('a'),
        scopes: Scopes::all(),
        name: Some("till".to_owned()),
        created_at: T0,
    }
}

pub(crate) async fn keys_are_found_by_hash_rotated_and_revoked(repos: Repositories) {
    repos.keys.create(&subscription("sub_1", "sk_one")).await.unwrap();
    let id = SubscriptionId::new("sub_1");

    let found = repos
        .keys
        .fetch_active_by_key(&KeyHash::of("sk_one"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (found.id.as_str(), found.wallet, found.name.as_deref()),
        ("sub_1", wallet('a'), Some("till"))
    );
    assert_eq!(found.scopes, Scopes::all());

    let rotated = repos
        .keys
        .rotate(&id, &SubscriptionId::new("sub_2"), &KeyHash::of("sk_two"), T0 + 1)
        .await
        .unwrap();

    let rotated = rotated.unwrap();
    assert_eq!(
        (rotated.id.as_str(), rotated.created_at, rotated.wallet),
        ("sub_2", T0 + 1, wallet('a'))
    );
    assert!(repos.keys.fetch_active(&id).await.unwrap().is_none());
    assert!(
        repos
            .keys
            .fetch_active_by_key(&KeyHash::of("sk_one"))
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        repos
            .keys
            .rotate(&id, &SubscriptionId::new("sub_3"), &KeyHash::of("sk_3"), T0 + 2)
            .await
            .unwrap()
            .is_none()
    );
    let listed = repos.keys.list().await.unwrap();
    assert_eq!(
        listed
            .iter()
            .map(|s| (s.id.as_str(), s.revoked_at))
            .collect::<Vec<_>>(),
        [("sub_1", Some(T0 + 1)), ("sub_2", None)]
    );

    assert!(
        repos
            .keys
            .revoke(&SubscriptionId::new("sub_2"), T0 + 5)
            .await
            .unwrap()
    );
    assert!(
        !repos
            .keys
            .revoke(&SubscriptionId::new("sub_2"), T0 + 6)
            .await
            .unwrap()
    );
    assert!(
        repos
            .keys
            .fetch_active_by_key(&KeyHash::of("sk_two"))
            .await
            .unwrap()
            .is_none()
    );
}

pub(crate) async fn parallel_first_key_bootstraps_create_one_subscription(repos: Repositories) {
    let barrier = Arc::new(Barrier::new(4));
    let racers: Vec<_> = (0..4)
        .map(|n| {
            let (repos, barrier) = (repos.clone(), barrier.clone());
            tokio::spawn(async move {
                let first = subscription(&format!("sub_{n}"), &format!("sk_{n}"));
                barrier.wait().await;
                repos.keys.create_first(&first).await.unwrap()
            })
        })
        .collect();

    let mut created = 0;
    for racer in racers {
        created += usize::from(racer.await.unwrap());
    }

    assert_eq!(created, 1);
    assert_eq!(repos.keys.list().await.unwrap().len(), 1);
    assert!(
        !repos
            .keys
            .create_first(&subscription("sub_late", "sk_late"))
            .await
            .unwrap()
    );
}

pub(crate) async fn an_instance_setting_keeps_the_first_value_recorded_even_under_a_race(
    repos: Repositories,
) {
    assert_eq!(repos.keys.fetch_setting("key_mode").await.unwrap(), None);
    let barrier = Arc::new(Barrier::new(4));
    let racers = ["a", "b", "c", "d"].map(|value| {
        let keys = Arc::clone(&repos.keys);
        let barrier = Arc::clone(&barrier);
        tokio::spawn(async move {
            barrier.wait().await;
            keys.record_setting("dev_master_key", value, T0).await.unwrap()
        })
    });

    let mut answers = Vec::new();
    for racer in racers {
        answers.push(racer.await.unwrap());
    }

    let stored = repos.keys.fetch_setting("dev_master_key").await.unwrap().unwrap();
    assert!(
        answers.iter().all(|answer| *answer == stored),
        "{answers:?} vs {stored}"
    );
    assert_eq!(
        repos
            .keys
            .record_setting("dev_master_key", "later", T0)
            .await
            .unwrap(),
        stored
    );
    assert_eq!(
        repos.keys.record_setting("key_mode", "live", T0).await.unwrap(),
        "live"
    );
    assert_eq!(
        repos.keys.fetch_setting("key_mode").await.unwrap().as_deref(),
        Some("live")
    );
}
