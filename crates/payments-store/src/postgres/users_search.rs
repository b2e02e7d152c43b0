//! User reads that list on PostgreSQL: the search (at most `scan` candidates in xp order, then the
//! filters), the live listing and the follows pages.

use crate::postgres::connection::{PgClient, Queries};
use payments_core::Wallet;
use tokio_postgres::types::ToSql;

use crate::postgres::error::PgError;
use crate::postgres::rows;
use crate::postgres::users::{user_columns, user_from_row};
use payments_domain::user::{FollowPage, LiveQuery, User, UserPage, UserSearch};

const LIVE: &str = concat!(
    "SELECT ",
    user_columns!(),
    " FROM users WHERE listed_at IS NOT NULL AND live AND space_public AND last_heartbeat >= $1
    ORDER BY last_heartbeat DESC, wallet LIMIT $2"
);
const FOLLOWS: &str = concat!(
    "SELECT ",
    user_columns!(),
    " FROM user_follows JOIN users ON users.wallet = user_follows.followed
    WHERE user_follows.follower = $1 AND user_follows.followed > $2 AND users.listed_at IS NOT NULL
    ORDER BY user_follows.followed LIMIT $3"
);

type Param = Box<dyn ToSql + Sync + Send>;

/// The statement for `search`'s shape with its parameters. Values are always bound, never spliced in; only
/// the number of metric conditions varies, so each shape is prepared once per connection and cached.
///
/// As on SQLite: at most `scan` listed users are read from the xp index (the xp bounds position it), and
/// every other filter is applied to those candidates only.
fn search_statement(search: &UserSearch) -> (String, Vec<Param>) {
    let mut values: Vec<Param> = Vec::new();
    let mut bind = |value: Param| {
        values.push(value);
        format!("${}", values.len())
    };
    let (min_xp, max_xp) = (bind(Box::new(search.min_xp)), bind(Box::new(search.max_xp)));
    let scan = bind(Box::new(i64::from(search.scan)));
    let mut filters = vec!["TRUE".to_owned()];
    if let Some(after) = search.live_after_ms {
        filters.push(format!(
            "users.live AND users.space_public AND users.last_heartbeat >= {}",
            bind(Box::new(after))
        ));
    }
    for (kind, value) in &search.metrics {
        let (kind, value) = (bind(Box::new(kind.as_str())), bind(Box::new(value.clone())));
        filters.push(format!(
            "EXISTS (SELECT 1 FROM user_metrics WHERE kind = {kind} AND value = {value} AND user_id = users.id)"
        ));
    }
    if let Some(q) = &search.q {
        let q = bind(Box::new(q.clone()));
        filters.push(format!(
            "(strpos(users.wallet, {q}) > 0 OR strpos(users.name_key, {q}) > 0)"
        ));
    }
    let limit = bind(Box::new(i64::from(search.limit)));
    let sql = format!(
        "SELECT {columns}, COUNT(*) OVER () AS total FROM (
            SELECT id FROM users WHERE listed_at IS NOT NULL AND xp >= {min_xp} AND xp <= {max_xp}
            ORDER BY xp DESC, wallet LIMIT {scan}
        ) AS candidates JOIN users ON users.id = candidates.id
        WHERE {filters}
        ORDER BY users.xp DESC, users.wallet LIMIT {limit}",
        columns = user_columns!(),
        filters = filters.join(" AND "),
    );
    (sql, values)
}

pub(super) async fn search(client: PgClient, search: &UserSearch) -> Result<UserPage, PgError> {
    let (sql, values) = search_statement(search);
    let statement = client.prepare_cached(&sql).await?;
    let params: Vec<&(dyn ToSql + Sync)> = values
        .iter()
        .map(|value| value.as_ref() as &(dyn ToSql + Sync))
        .collect();
    let found = client.query(&statement, &params).await?;
    let total = match found.first() {
        Some(row) => rows::non_negative(rows::get(row, "total")?),
        None => 0,
    };
    let users = found.iter().map(user_from_row).collect::<Result<_, _>>()?;
    Ok(UserPage { users, total })
}

pub(super) async fn live(client: PgClient, query: LiveQuery) -> Result<Vec<User>, PgError> {
    let statement = client.prepare_cached(LIVE).await?;
    let found = client
        .query(&statement, &[&query.after_ms, &i64::from(query.limit)])
        .await?;
    found.iter().map(user_from_row).collect()
}

pub(super) async fn follows(
    client: PgClient,
    follower: Wallet,
    first: u32,
    after: Option<Wallet>,
) -> Result<FollowPage, PgError> {
    let statement = client.prepare_cached(FOLLOWS).await?;
    // Every wallet sorts after the empty string.
    let after = after.map(|wallet| wallet.to_string()).unwrap_or_default();
    let found = client
        .query(
            &statement,
            &[&follower.to_string(), &after, &(i64::from(first) + 1)],
        )
        .await?;
    let mut users = found.iter().map(user_from_row).collect::<Result<Vec<_>, _>>()?;
    let has_next = users.len() > first as usize;
    users.truncate(first as usize);
    Ok(FollowPage { users, has_next })
}
