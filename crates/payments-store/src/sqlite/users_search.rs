//! User reads that list: the search (at most `scan` candidates in xp order, then the filters), the live
//! listing and the follows pages.

use payments_core::Wallet;
use rusqlite::types::Value;
use rusqlite::{Connection, params, params_from_iter};

use crate::sqlite::users::{user_columns, user_from_row};
use payments_domain::user::{FollowPage, LiveQuery, User, UserPage, UserSearch};

const LIVE: &str = concat!(
    "SELECT ",
    user_columns!(),
    " FROM users WHERE listed_at IS NOT NULL AND live = 1 AND space_public = 1 AND last_heartbeat >= ?1
    ORDER BY last_heartbeat DESC, wallet LIMIT ?2"
);
const FOLLOWS: &str = concat!(
    "SELECT ",
    user_columns!(),
    " FROM user_follows JOIN users ON users.wallet = user_follows.followed
    WHERE user_follows.follower = ?1 AND user_follows.followed > ?2 AND users.listed_at IS NOT NULL
    ORDER BY user_follows.followed LIMIT ?3"
);

/// The statement for `search`'s shape with its parameters. Values are always bound, never spliced in; only
/// the number of metric conditions varies, so each shape is prepared once and cached.
///
/// The inner query reads at most `scan` listed users from the xp index (the xp bounds position it); every
/// other filter is applied to those candidates only, each metric by a primary-key probe. So a search reads
/// at most `scan` rows whatever the filters and however many users there are.
fn search_statement(search: &UserSearch) -> (String, Vec<Value>) {
    let mut values = vec![
        Value::Integer(search.min_xp),
        Value::Integer(search.max_xp),
        Value::Integer(i64::from(search.scan)),
    ];
    let mut filters: Vec<&str> = Vec::new();
    if let Some(after) = search.live_after_ms {
        filters.extend(["live = 1", "space_public = 1", "last_heartbeat >= ?"]);
        values.push(Value::Integer(after));
    }
    for (kind, value) in &search.metrics {
        filters.push(
            "EXISTS (SELECT 1 FROM user_metrics WHERE kind = ? AND value = ? AND user_metrics.user_id = candidates.id)",
        );
        values.push(Value::Text(kind.as_str().to_owned()));
        values.push(Value::Text(value.clone()));
    }
    if let Some(q) = &search.q {
        filters.push("(instr(wallet, ?) > 0 OR instr(name_key, ?) > 0)");
        values.extend([Value::Text(q.clone()), Value::Text(q.clone())]);
    }
    values.push(Value::Integer(i64::from(search.limit)));
    let filters = if filters.is_empty() {
        "1".to_owned()
    } else {
        filters.join(" AND ")
    };
    let sql = format!(
        "SELECT {columns}, COUNT(*) OVER () FROM (
            SELECT id, {columns}, name_key FROM users INDEXED BY users_listed_by_xp
            WHERE listed_at IS NOT NULL AND xp >= ? AND xp <= ? ORDER BY xp DESC, wallet LIMIT ?
        ) AS candidates WHERE {filters}
        ORDER BY xp DESC, wallet LIMIT ?",
        columns = user_columns!(),
    );
    (sql, values)
}

pub(super) fn search(conn: &Connection, search: &UserSearch) -> rusqlite::Result<UserPage> {
    let (sql, values) = search_statement(search);
    let mut statement = conn.prepare_cached(&sql)?;
    let mut total = 0u64;
    let mut users = Vec::new();
    let mut rows = statement.query(params_from_iter(values))?;
    while let Some(row) = rows.next()? {
        total = u64::try_from(row.get::<_, i64>(14)?).unwrap_or_default();
        users.push(user_from_row(row)?);
    }
    Ok(UserPage { users, total })
}

pub(super) fn live(conn: &Connection, query: LiveQuery) -> rusqlite::Result<Vec<User>> {
    let mut statement = conn.prepare_cached(LIVE)?;
    let users = statement.query_map(params![query.after_ms, query.limit], user_from_row)?;
    users.collect()
}

pub(super) fn follows(
    conn: &Connection,
    follower: Wallet,
    first: u32,
    after: Option<Wallet>,
) -> rusqlite::Result<FollowPage> {
    let mut statement = conn.prepare_cached(FOLLOWS)?;
    // Every wallet sorts after the empty string.
    let after = after.map(|wallet| wallet.to_string()).unwrap_or_default();
    let found = statement.query_map(
        params![follower.to_string(), after, i64::from(first) + 1],
        user_from_row,
    )?;
    let mut users = found.collect::<rusqlite::Result<Vec<_>>>()?;
    let has_next = users.len() > first as usize;
    users.truncate(first as usize);
    Ok(FollowPage { users, has_next })
}
