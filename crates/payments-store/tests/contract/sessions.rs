//! [`SessionRepository`]: sign-in nonces (single use, expiring) and admin sessions.

use std::sync::Arc;

use tokio::sync::Barrier;

use crate::Repositories;
use crate::fixtures::{T0, wallet};
use payments_domain::admin::{CsrfHash, NewAdminSession, SessionId};

fn session(id: &str, created_at_ms: i64) -> NewAdminSession {
    NewAdminSession {
        id: SessionId::new(id),
        wallet: wallet('a'),
        csrf_hash: CsrfHash::of("csrf"),
        created_at_ms,
        expires_at_ms: created_at_ms + 3_600_000,
    }
}

pub(crate) async fn a_nonce_opens_one_session_even_when_raced(repos: Repositories) {
    repos
        .sessions
        .issue_nonce(wallet('a'), "nonce-1", T0 + 60_000, T0)
        .await
        .unwrap();
    let barrier = Arc::new(Barrier::new(5));
    let racers: Vec<_> = (0..5)
        .map(|n| {
            let (repos, barrier) = (repos.clone(), barrier.clone());
            tokio::spawn(async move {
                barrier.wait().await;
                repos
                    .sessions
                    .open_session("nonce-1", &session(&format!("ses_{n}"), T0 + 1))
                    .await
                    .unwrap()
            })
        })
        .collect();

    let mut opened = 0;
    for racer in racers {
        opened += usize::from(racer.await.unwrap());
    }

    assert_eq!(opened, 1);
}

pub(crate) async fn expired_or_foreign_nonces_open_nothing(repos: Repositories) {
    repos
        .sessions
        .issue_nonce(wallet('a'), "nonce-1", T0 + 60_000, T0)
        .await
        .unwrap();
    let mut foreign = session("ses_1", T0 + 1);
    foreign.wallet = wallet('c');

    assert!(!repos.sessions.open_session("nonce-1", &foreign).await.unwrap());
    assert!(
        !repos
            .sessions
            .open_session("nonce-1", &session("ses_2", T0 + 60_000))
            .await
            .unwrap()
    );
    assert!(
        !repos
            .sessions
            .open_session("nonce-unknown", &session("ses_3", T0 + 1))
            .await
            .unwrap()
    );
    assert!(
        repos
            .sessions
            .fetch_live(&SessionId::new("ses_1"), T0 + 2)
            .await
            .unwrap()
            .is_none()
    );
}

pub(crate) async fn sessions_end_expire_and_are_revoked_per_wallet(repos: Repositories) {
    for (nonce, id) in [("n-1", "ses_1"), ("n-2", "ses_2"), ("n-3", "ses_3")] {
        repos
            .sessions
            .issue_nonce(wallet('a'), nonce, T0 + 60_000, T0)
            .await
            .unwrap();
        assert!(
            repos
                .sessions
                .open_session(nonce, &session(id, T0 + 1))
                .await
                .unwrap()
        );
    }
    let live = repos
        .sessions
        .fetch_live(&SessionId::new("ses_1"), T0 + 2)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (live.wallet, live.expires_at_ms),
        (wallet('a'), T0 + 1 + 3_600_000)
    );
    assert!(live.csrf_hash.matches("csrf"));
    assert!(
        repos
            .sessions
            .fetch_live(&SessionId::new("ses_1"), T0 + 1 + 3_600_000)
            .await
            .unwrap()
            .is_none()
    );

    assert!(
        repos
            .sessions
            .end(&SessionId::new("ses_1"), T0 + 3)
            .await
            .unwrap()
    );
    assert!(
        !repos
            .sessions
            .end(&SessionId::new("ses_1"), T0 + 4)
            .await
            .unwrap()
    );

    assert_eq!(
        repos.sessions.revoke_wallet(wallet('a'), T0 + 5).await.unwrap(),
        2
    );
    assert!(
        repos
            .sessions
            .fetch_live(&SessionId::new("ses_2"), T0 + 6)
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(
        repos.sessions.revoke_wallet(wallet('a'), T0 + 7).await.unwrap(),
        0
    );
}
