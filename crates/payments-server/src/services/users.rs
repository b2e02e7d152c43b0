//! User discovery and a signed-in wallet's writes about itself: profile, heartbeats, follows.
//!
//! Listings answer their degraded form while the datastore is unavailable (like the receipt list): the
//! discovery pages keep rendering, empty, and say why.

use std::sync::Arc;

use payments_core::Wallet;
use thiserror::Error;

use crate::domain::field_error::FieldError;
use crate::domain::user::{
    FollowOutcome, FollowPage, FollowRequest, HeartbeatRequest, LiveQuery, ProfileRequest, User, UserPage,
    UserSearch,
};
use crate::runtime::clock::Clock;
use crate::store::{StoreError, UserRepository};

#[derive(Debug, Error)]
pub(crate) enum UserError {
    #[error(transparent)]
    Invalid(#[from] FieldError),
    #[error("{0} is not a user: it never signed in and wrote a profile, heartbeat or follow")]
    UnknownUser(Wallet),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A listing, or its degraded form (empty) while the datastore is unavailable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Listing<T> {
    pub(crate) found: T,
    pub(crate) degraded: bool,
}

/// Users over the user repository.
#[derive(Debug, Clone)]
pub(crate) struct UserService {
    pub(crate) users: Arc<dyn UserRepository>,
    pub(crate) clock: Arc<dyn Clock>,
}

impl UserService {
    /// The time live windows are measured from.
    pub(crate) fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    pub(crate) async fn save_profile(
        &self,
        wallet: Wallet,
        request: ProfileRequest,
    ) -> Result<User, UserError> {
        let update = request.parse(wallet, self.now_ms())?;
        Ok(self.users.save_profile(&update).await?)
    }

    pub(crate) async fn heartbeat(
        &self,
        wallet: Wallet,
        request: HeartbeatRequest,
    ) -> Result<User, UserError> {
        let beat = request.parse(wallet, self.now_ms())?;
        Ok(self.users.heartbeat(&beat).await?)
    }

    /// Follows the request's wallet; returns it and whether this call created the follow.
    pub(crate) async fn follow(
        &self,
        follower: Wallet,
        request: FollowRequest,
    ) -> Result<(Wallet, bool), UserError> {
        let followed = request.parse(follower)?;
        match self.users.follow(follower, followed, self.now_ms()).await? {
            FollowOutcome::Followed => Ok((followed, true)),
            FollowOutcome::AlreadyFollowing => Ok((followed, false)),
            FollowOutcome::UnknownUser => Err(UserError::UnknownUser(followed)),
        }
    }

    /// Stops following the request's wallet; returns it and whether a follow was removed.
    pub(crate) async fn unfollow(
        &self,
        follower: Wallet,
        request: FollowRequest,
    ) -> Result<(Wallet, bool), UserError> {
        let followed = request.parse(follower)?;
        let removed = self.users.unfollow(follower, followed, self.now_ms()).await?;
        Ok((followed, removed))
    }

    pub(crate) async fn user(&self, wallet: Wallet) -> Result<User, UserError> {
        self.users
            .fetch_user(wallet)
            .await?
            .ok_or(UserError::UnknownUser(wallet))
    }

    /// A listed user, `None` when the wallet is not one (GraphQL's nullable `user`).
    pub(crate) async fn find(&self, wallet: Wallet) -> Result<Option<User>, StoreError> {
        self.users.fetch_user(wallet).await
    }

    pub(crate) async fn search(&self, search: &UserSearch) -> Result<Listing<UserPage>, UserError> {
        degraded_when_unavailable(
            self.users.search(search).await,
            UserPage {
                users: Vec::new(),
                total: 0,
            },
        )
    }

    pub(crate) async fn live(&self, query: LiveQuery) -> Result<Listing<Vec<User>>, UserError> {
        degraded_when_unavailable(self.users.live(query).await, Vec::new())
    }

    /// The `first` users live now.
    pub(crate) async fn live_now(&self, first: u32) -> Result<Vec<User>, StoreError> {
        self.users
            .live(LiveQuery::within_window(self.now_ms(), first))
            .await
    }

    /// The `first` listed users with the most xp.
    pub(crate) async fn leaderboard(&self, first: u32) -> Result<Vec<User>, StoreError> {
        Ok(self.users.search(&UserSearch::top(first)).await?.users)
    }

    pub(crate) async fn follows(
        &self,
        wallet: Wallet,
        first: u32,
        after: Option<Wallet>,
    ) -> Result<FollowPage, StoreError> {
        self.users.follows(wallet, first, after).await
    }
}

fn degraded_when_unavailable<T>(read: Result<T, StoreError>, empty: T) -> Result<Listing<T>, UserError> {
    match read {
        Ok(found) => Ok(Listing {
            found,
            degraded: false,
        }),
        Err(StoreError::Unavailable(reason) | StoreError::Busy(reason)) => {
            tracing::warn!(reason = %reason, "users listed in degraded mode");
            Ok(Listing {
                found: empty,
                degraded: true,
            })
        }
        Err(other) => Err(other.into()),
    }
}
