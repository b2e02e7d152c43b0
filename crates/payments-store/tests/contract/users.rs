//! [`UserRepository`] and [`BillingRepository`]: profiles and their metric rows, the search's indexed
//! filters, scan window and `q`, presence, follows, the xp receipts credit their buyers, and the receipt
//! totals of the billing balance.

use std::sync::Arc;

use payments_core::{Cents, Wallet};
use tokio::sync::Barrier;

use crate::Repositories;
use crate::fixtures::{self, T0, wallet};
use payments_domain::user::{
    FollowOutcome, Heartbeat, LIVE_WINDOW_MS, LiveQuery, MetricKind, ProfileUpdate, User, UserSearch,
};
use payments_store::ReceiptFeeBase;

/// A listed profile of `wallet`.
pub(crate) fn profile(wallet: Wallet, name: &str, languages: &[&str]) -> ProfileUpdate {
    ProfileUpdate {
        wallet,
        display_name: name.to_owned(),
        pfp_url: Some("https://img.example/p.png".to_owned()),
        space_url: None,
        domains: vec!["defi".to_owned()],
        platforms: vec!["twitch".to_owned()],
        languages: languages.iter().map(|language| (*language).to_owned()).collect(),
        now_ms: T0,
    }
}

fn beat(wallet: Wallet, live: bool, space_public: bool, now_ms: i64) -> Heartbeat {
    Heartbeat {
        wallet,
        live,
        space_public,
        platform: None,
        now_ms,
    }
}

/// Receipt `id` of merchant `a`, paid `cents` by `buyer`.
async fn bought(repos: &Repositories, id: &str, buyer: Wallet, cents: i64) {
    let merchant = wallet('a');
    let sale = fixtures::receipt_sale(fixtures::new_receipt(merchant, id, cents));
    repos.receipts.create(sale).await.unwrap();
    let paid = fixtures::transition(merchant, id, fixtures::mark_paid_by(cents, buyer));
    repos.receipts.transition(paid).await.unwrap();
}

fn wallets(users: &[User]) -> Vec<Wallet> {
    users.iter().map(|user| user.wallet).collect()
}

pub(crate) async fn a_profile_is_replaced_whole_and_its_metrics_follow(repos: Repositories) {
    let user = wallet('1');
    assert_eq!(repos.users.fetch_user(user).await.unwrap(), None);

    repos
        .users
        .save_profile(&profile(user, "Ada", &["en", "fr"]))
        .await
        .unwrap();
    let replaced = ProfileUpdate {
        pfp_url: None,
        languages: vec!["de".to_owned()],
        now_ms: T0 + 5,
        ..profile(user, "Ada L.", &[])
    };
    let saved = repos.users.save_profile(&replaced).await.unwrap();

    assert_eq!(repos.users.fetch_user(user).await.unwrap(), Some(saved.clone()));
    assert_eq!(
        (
            saved.display_name.as_str(),
            saved.pfp_url,
            saved.languages.clone()
        ),
        ("Ada L.", None, vec!["de".to_owned()])
    );
    assert_eq!(saved.last_seen, Some(T0 + 5));
    let by = |language: &str| UserSearch {
        metrics: vec![(MetricKind::Language, language.to_owned())],
        ..UserSearch::top(10)
    };
    assert!(repos.users.search(&by("en")).await.unwrap().users.is_empty());
    assert_eq!(
        wallets(&repos.users.search(&by("de")).await.unwrap().users),
        [user]
    );
}

pub(crate) async fn paid_receipts_credit_their_buyer_and_refunds_take_it_back(repos: Repositories) {
    let buyer = wallet('1');
    repos
        .users
        .save_profile(&profile(buyer, "Buyer", &[]))
        .await
        .unwrap();

    bought(&repos, "r-1", buyer, 1_250).await;
    bought(&repos, "r-2", buyer, 999).await;
    assert_eq!(repos.users.fetch_user(buyer).await.unwrap().unwrap().xp, 22);

    let refund = fixtures::transition(wallet('a'), "r-1", fixtures::refund(500));
    repos.receipts.transition(refund).await.unwrap();

    assert_eq!(repos.users.fetch_user(buyer).await.unwrap().unwrap().xp, 17);
}

pub(crate) async fn a_buyer_who_never_wrote_is_credited_but_not_listed(repos: Repositories) {
    let buyer = wallet('2');
    bought(&repos, "r-1", buyer, 5_000).await;

    assert_eq!(repos.users.fetch_user(buyer).await.unwrap(), None);
    assert!(
        repos
            .users
            .search(&UserSearch::top(10))
            .await
            .unwrap()
            .users
            .is_empty()
    );

    repos
        .users
        .save_profile(&profile(buyer, "Late", &[]))
        .await
        .unwrap();
    assert_eq!(repos.users.fetch_user(buyer).await.unwrap().unwrap().xp, 50);
}

pub(crate) async fn parallel_payments_by_one_buyer_credit_every_one(repos: Repositories) {
    let buyer = wallet('3');
    repos
        .users
        .save_profile(&profile(buyer, "Busy", &[]))
        .await
        .unwrap();
    let merchant = wallet('a');
    for n in 0..8 {
        let sale = fixtures::receipt_sale(fixtures::new_receipt(merchant, &format!("p-{n}"), 100));
        repos.receipts.create(sale).await.unwrap();
    }
    let barrier = Arc::new(Barrier::new(8));
    let racers: Vec<_> = (0..8)
        .map(|n| {
            let (repos, barrier) = (repos.clone(), barrier.clone());
            tokio::spawn(async move {
                barrier.wait().await;
                let paid =
                    fixtures::transition(merchant, &format!("p-{n}"), fixtures::mark_paid_by(100, buyer));
                repos.receipts.transition(paid).await.unwrap();
            })
        })
        .collect();
    for racer in racers {
        racer.await.unwrap();
    }

    assert_eq!(repos.users.fetch_user(buyer).await.unwrap().unwrap().xp, 8);
}

/// Users `1`..`6` with xp 60, 50, .., 10; `2` and `4` speak `fr`, the others `en`.
async fn seed_ranked(repos: &Repositories) -> Vec<Wallet> {
    let mut ranked = Vec::new();
    for (rank, digit) in ['1', '2', '3', '4', '5', '6'].into_iter().enumerate() {
        let user = wallet(digit);
        let language = if digit == '2' || digit == '4' { "fr" } else { "en" };
        repos
            .users
            .save_profile(&profile(user, &format!("User {digit}"), &[language]))
            .await
            .unwrap();
        let cents = (6 - i64::try_from(rank).unwrap()) * 1_000;
        bought(repos, &format!("seed-{digit}"), user, cents).await;
        ranked.push(user);
    }
    ranked
}

pub(crate) async fn search_orders_by_xp_and_filters_within_the_scan_window(repos: Repositories) {
    let ranked = seed_ranked(&repos).await;

    let all = repos.users.search(&UserSearch::top(3)).await.unwrap();
    assert_eq!((wallets(&all.users), all.total), (ranked[..3].to_vec(), 3));

    let french = UserSearch {
        metrics: vec![(MetricKind::Language, "fr".to_owned())],
        ..UserSearch::top(10)
    };
    assert_eq!(
        wallets(&repos.users.search(&french).await.unwrap().users),
        [ranked[1], ranked[3]]
    );

    let xp_band = UserSearch {
        min_xp: 20,
        max_xp: 40,
        ..UserSearch::top(10)
    };
    assert_eq!(
        wallets(&repos.users.search(&xp_band).await.unwrap().users),
        ranked[2..5]
    );

    // Filters look only at the `scan` highest candidates (within the xp bounds); `total` counts the matches
    // among them.
    let french_in_top_two = UserSearch {
        scan: 2,
        ..french.clone()
    };
    let top_two = repos.users.search(&french_in_top_two).await.unwrap();
    assert_eq!((wallets(&top_two.users), top_two.total), (vec![ranked[1]], 1));
    let french_from_30 = UserSearch {
        max_xp: 30,
        scan: 1,
        ..french.clone()
    };
    assert_eq!(
        wallets(&repos.users.search(&french_from_30).await.unwrap().users),
        [ranked[3]]
    );
    let named = |q: &str, scan: u32| UserSearch {
        q: Some(q.to_owned()),
        scan,
        limit: 1,
        ..UserSearch::top(1)
    };
    let found = repos.users.search(&named("user", 4)).await.unwrap();
    assert_eq!((wallets(&found.users), found.total), (vec![ranked[0]], 4));
    assert!(
        repos
            .users
            .search(&named("user 6", 5))
            .await
            .unwrap()
            .users
            .is_empty()
    );
    let sixth = repos.users.search(&named("user 6", 6)).await.unwrap();
    assert_eq!(wallets(&sixth.users), [ranked[5]]);
    let by_wallet = repos
        .users
        .search(&named(&ranked[2].to_string()[..12], 6))
        .await
        .unwrap();
    assert_eq!(wallets(&by_wallet.users), [ranked[2]]);
}

pub(crate) async fn heartbeats_keep_a_live_session_and_live_lists_recent_public_users(repos: Repositories) {
    let (streamer, private, quiet) = (wallet('1'), wallet('2'), wallet('3'));
    let first = repos
        .users
        .heartbeat(&beat(streamer, true, true, T0))
        .await
        .unwrap();
    repos
        .users
        .heartbeat(&beat(private, true, false, T0))
        .await
        .unwrap();
    repos
        .users
        .heartbeat(&beat(quiet, false, true, T0))
        .await
        .unwrap();
    let later = repos
        .users
        .heartbeat(&beat(streamer, true, true, T0 + 60_000))
        .await
        .unwrap();

    assert_eq!((first.live_since, later.live_since), (Some(T0), Some(T0)));
    assert_eq!(later.last_heartbeat, Some(T0 + 60_000));
    let live_at = |now_ms: i64| repos.users.live(LiveQuery::within_window(now_ms, 100));
    assert_eq!(
        wallets(&live_at(T0 + 60_000 + LIVE_WINDOW_MS).await.unwrap()),
        [streamer]
    );
    assert!(live_at(T0 + 60_001 + LIVE_WINDOW_MS).await.unwrap().is_empty());

    let back = T0 + 60_001 + LIVE_WINDOW_MS;
    let restarted = repos
        .users
        .heartbeat(&beat(streamer, true, true, back))
        .await
        .unwrap();
    assert_eq!(restarted.live_since, Some(back));
    let stopped = repos
        .users
        .heartbeat(&beat(streamer, false, true, back + 1))
        .await
        .unwrap();
    assert_eq!((stopped.live, stopped.live_since), (false, None));
}

pub(crate) async fn follows_are_paged_by_wallet_and_need_a_listed_user(repos: Repositories) {
    let fan = wallet('f');
    let stars: Vec<Wallet> = ['1', '2', '3'].into_iter().map(wallet).collect();
    for star in &stars {
        repos
            .users
            .save_profile(&profile(*star, "Star", &[]))
            .await
            .unwrap();
    }

    assert_eq!(
        repos.users.follow(fan, wallet('9'), T0).await.unwrap(),
        FollowOutcome::UnknownUser
    );
    for star in stars.iter().rev() {
        assert_eq!(
            repos.users.follow(fan, *star, T0).await.unwrap(),
            FollowOutcome::Followed
        );
    }
    assert_eq!(
        repos.users.follow(fan, stars[0], T0).await.unwrap(),
        FollowOutcome::AlreadyFollowing
    );

    let first = repos.users.follows(fan, 2, None).await.unwrap();
    assert_eq!(
        (wallets(&first.users), first.has_next),
        (stars[..2].to_vec(), true)
    );
    let rest = repos.users.follows(fan, 2, Some(stars[1])).await.unwrap();
    assert_eq!((wallets(&rest.users), rest.has_next), (vec![stars[2]], false));
    assert!(repos.users.unfollow(fan, stars[0], T0 + 1).await.unwrap());
    assert!(!repos.users.unfollow(fan, stars[0], T0 + 2).await.unwrap());
    assert_eq!(
        wallets(&repos.users.follows(fan, 10, None).await.unwrap().users),
        stars[1..]
    );
    assert!(
        repos.users.fetch_user(fan).await.unwrap().is_some(),
        "following lists the follower"
    );
}

pub(crate) async fn parallel_follows_of_one_pair_store_one_follow(repos: Repositories) {
    let (fan, star) = (wallet('f'), wallet('1'));
    repos
        .users
        .save_profile(&profile(star, "Star", &[]))
        .await
        .unwrap();
    let barrier = Arc::new(Barrier::new(6));
    let racers: Vec<_> = (0..6)
        .map(|_| {
            let (repos, barrier) = (repos.clone(), barrier.clone());
            tokio::spawn(async move {
                barrier.wait().await;
                repos.users.follow(fan, star, T0).await.unwrap()
            })
        })
        .collect();
    let mut followed = 0;
    for racer in racers {
        if racer.await.unwrap() == FollowOutcome::Followed {
            followed += 1;
        }
    }

    assert_eq!(followed, 1);
    assert_eq!(repos.users.follows(fan, 10, None).await.unwrap().users.len(), 1);
}

pub(crate) async fn the_fee_base_counts_paid_and_settled_receipts_of_one_merchant(repos: Repositories) {
    let merchant = wallet('a');
    assert_eq!(
        repos.billing.receipt_fee_base(merchant).await.unwrap(),
        ReceiptFeeBase::default()
    );
    bought(&repos, "b-1", wallet('1'), 1_000).await;
    bought(&repos, "b-2", wallet('1'), 775).await;
    bought(&repos, "b-3", wallet('1'), 300).await;
    let unpaid = fixtures::receipt_sale(fixtures::new_receipt(merchant, "b-4", 5_000));
    repos.receipts.create(unpaid).await.unwrap();
    let completed = fixtures::transition(merchant, "b-2", fixtures::mark_completed());
    repos.receipts.transition(completed).await.unwrap();
    for id in ["b-2", "b-3"] {
        let refunded = fixtures::transition(merchant, id, fixtures::refund(100));
        repos.receipts.transition(refunded).await.unwrap();
    }

    assert_eq!(
        repos.billing.receipt_fee_base(merchant).await.unwrap(),
        ReceiptFeeBase {
            paid_receipts: 3,
            paid: Cents::new(2_075),
            settled_receipts: 1,
            settled_paid: Cents::new(775),
        }
    );
    assert_eq!(
        repos.billing.receipt_fee_base(wallet('c')).await.unwrap(),
        ReceiptFeeBase::default()
    );
}
