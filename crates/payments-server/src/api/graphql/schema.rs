//! The query root and the `User` type.

use async_graphql::{Context, Guard, Object, Result, SimpleObject};
use payments_core::{ErrorCode, Wallet};

use crate::api::graphql::errors::{coded, store};
use crate::api::graphql::{DEFAULT_PAGE, MAX_PAGE};
use crate::domain::scope::{Scope, Scopes};
use crate::domain::user::User;
use crate::services::users::UserService;

/// Refuses a field unless the caller's key has `scope`.
struct ScopeGuard(Scope);

impl Guard for ScopeGuard {
    async fn check(&self, ctx: &Context<'_>) -> Result<()> {
        let allowed = ctx
            .data_opt::<Scopes>()
            .is_some_and(|scopes| scopes.contains(self.0));
        if allowed {
            Ok(())
        } else {
            Err(coded(
                ErrorCode::Forbidden,
                format!("this field needs the key's {} scope", self.0),
            ))
        }
    }
}

fn users<'a>(ctx: &Context<'a>) -> Result<&'a UserService> {
    ctx.data::<UserService>()
}

fn wallet(field: &str, text: &str) -> Result<Wallet> {
    Wallet::parse(text).map_err(|error| coded(ErrorCode::InvalidInput, format!("{field}: {error}")))
}

/// `first` within 1..=MAX_PAGE, else an error (never a silent clamp).
fn page_size(first: i32) -> Result<u32> {
    if (1..=MAX_PAGE).contains(&first) {
        Ok(first.unsigned_abs())
    } else {
        Err(coded(
            ErrorCode::InvalidInput,
            format!("first: must be 1 to {MAX_PAGE}"),
        ))
    }
}

/// The fields priced by [`paged_cost`], by their GraphQL names (the document costing in `cost.rs` prices
/// them the same way before the schema sees the document).
pub(crate) const PAGED_FIELDS: [&str; 3] = ["follows", "liveUsers", "leaderboard"];

/// What a paged field costs: `first` (as validated later) times its selection.
fn paged_cost(first: i32, child_complexity: usize) -> usize {
    usize::try_from(first.clamp(1, MAX_PAGE))
        .unwrap_or(1)
        .saturating_mul(child_complexity)
}

/// The root of every query.
#[derive(Debug, Default)]
pub(crate) struct Query;

#[Object]
impl Query {
    /// A user by wallet; `null` when the wallet is not a listed user.
    #[graphql(guard = "ScopeGuard(Scope::UsersRead)")]
    async fn user(&self, ctx: &Context<'_>, wallet: String) -> Result<Option<UserNode>> {
        let wallet = self::wallet("wallet", &wallet)?;
        let service = users(ctx)?;
        let found = service.find(wallet).await.map_err(store)?;
        Ok(found.map(|user| UserNode::new(user, service.now_ms())))
    }

    /// The users `wallet` follows, ordered by wallet; `after` is the previous page's `endCursor`.
    #[graphql(
        guard = "ScopeGuard(Scope::UsersRead)",
        complexity = "paged_cost(first, child_complexity)"
    )]
    async fn follows(
        &self,
        ctx: &Context<'_>,
        wallet: String,
        #[graphql(default_with = "DEFAULT_PAGE")] first: i32,
        after: Option<String>,
    ) -> Result<FollowConnection> {
        follows_of(ctx, self::wallet("wallet", &wallet)?, first, after).await
    }

    /// Users live now (heard from within 2 minutes, public space), most recent heartbeat first.
    #[graphql(
        guard = "ScopeGuard(Scope::UsersRead)",
        complexity = "paged_cost(first, child_complexity)"
    )]
    async fn live_users(
        &self,
        ctx: &Context<'_>,
        #[graphql(default_with = "DEFAULT_PAGE")] first: i32,
    ) -> Result<Vec<UserNode>> {
        let service = users(ctx)?;
        let found = service.live_now(page_size(first)?).await.map_err(store)?;
        Ok(nodes(found, service.now_ms()))
    }

    /// The users with the most xp.
    #[graphql(
        guard = "ScopeGuard(Scope::UsersRead)",
        complexity = "paged_cost(first, child_complexity)"
    )]
    async fn leaderboard(
        &self,
        ctx: &Context<'_>,
        #[graphql(default_with = "DEFAULT_PAGE")] first: i32,
    ) -> Result<Vec<UserNode>> {
        let service = users(ctx)?;
        let found = service.leaderboard(page_size(first)?).await.map_err(store)?;
        Ok(nodes(found, service.now_ms()))
    }
}

async fn follows_of(
    ctx: &Context<'_>,
    wallet: Wallet,
    first: i32,
    after: Option<String>,
) -> Result<FollowConnection> {
    let first = page_size(first)?;
    let after = after.map(|cursor| self::wallet("after", &cursor)).transpose()?;
    let service = users(ctx)?;
    let page = service.follows(wallet, first, after).await.map_err(store)?;
    Ok(FollowConnection {
        end_cursor: page.users.last().map(|user| user.wallet.to_string()),
        has_next_page: page.has_next,
        nodes: nodes(page.users, service.now_ms()),
    })
}

fn nodes(users: Vec<User>, now_ms: i64) -> Vec<UserNode> {
    users
        .into_iter()
        .map(|user| UserNode::new(user, now_ms))
        .collect()
}

/// A page of followed users.
#[derive(Debug, SimpleObject)]
pub(crate) struct FollowConnection {
    nodes: Vec<UserNode>,
    has_next_page: bool,
    /// Pass as `after` for the next page.
    end_cursor: Option<String>,
}

/// A user, as the REST search shows it (`live` is what holds now).
#[derive(Debug)]
pub(crate) struct UserNode {
    user: User,
    now_ms: i64,
}

impl UserNode {
    fn new(user: User, now_ms: i64) -> Self {
        UserNode { user, now_ms }
    }
}

#[Object(name = "User")]
impl UserNode {
    async fn wallet(&self) -> String {
        self.user.wallet.to_string()
    }

    async fn display_name(&self) -> &str {
        &self.user.display_name
    }

    async fn pfp_url(&self) -> Option<&str> {
        self.user.pfp_url.as_deref()
    }

    async fn space_url(&self) -> Option<&str> {
        self.user.space_url.as_deref()
    }

    /// Derived from the wallet's purchases: one per whole US dollar paid (net of refunds).
    async fn xp(&self) -> i64 {
        self.user.xp
    }

    /// Declared live and heard from within the last 2 minutes.
    async fn live(&self) -> bool {
        self.user.is_live_at(self.now_ms)
    }

    async fn space_public(&self) -> bool {
        self.user.space_public
    }

    async fn live_since(&self) -> Option<i64> {
        self.user.live_since.filter(|_| self.user.is_live_at(self.now_ms))
    }

    async fn last_seen(&self) -> Option<i64> {
        self.user.last_seen
    }

    async fn last_heartbeat(&self) -> Option<i64> {
        self.user.last_heartbeat
    }

    /// The platform a live listing shows.
    async fn platform(&self) -> &str {
        self.user.shown_platform()
    }

    async fn domains(&self) -> &[String] {
        &self.user.domains
    }

    async fn platforms(&self) -> &[String] {
        &self.user.platforms
    }

    async fn languages(&self) -> &[String] {
        &self.user.languages
    }

    /// The users this user follows.
    #[graphql(complexity = "paged_cost(first, child_complexity)")]
    async fn follows(
        &self,
        ctx: &Context<'_>,
        #[graphql(default_with = "DEFAULT_PAGE")] first: i32,
        after: Option<String>,
    ) -> Result<FollowConnection> {
        follows_of(ctx, self.user.wallet, first, after).await
    }
}
