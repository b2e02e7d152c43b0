//! `payments users search|live|show`: user discovery (scope users:read).

use std::process::ExitCode;

use clap::{Args, Subcommand};
use payments_client::{User, UserSearch};
use payments_core::Wallet;
use serde_json::json;

use crate::connection::{ConnectionArgs, block_on};
use crate::item_view::{add_degraded, degraded_note};
use crate::output::{Table, one_line, print_json, print_text, utc};
use crate::report::exit_code;

/// Find users, list who is live, show one user.
#[derive(Debug, Args)]
pub(crate) struct UsersArgs {
    #[command(subcommand)]
    command: UsersCommand,
}

#[derive(Debug, Subcommand)]
enum UsersCommand {
    /// Search users by name or wallet, metrics and xp; most xp first.
    Search(SearchArgs),
    /// List users live now (heard from within 2 minutes, public space).
    Live(LiveArgs),
    /// Show one user.
    Show(ShowArgs),
}

#[derive(Debug, Args)]
struct SearchArgs {
    /// Text to find in the wallet or display name (any case).
    query: Option<String>,
    /// Comma-separated domains the user must all have.
    #[arg(long, value_delimiter = ',')]
    domains: Vec<String>,
    /// Comma-separated platforms the user must all have.
    #[arg(long, value_delimiter = ',')]
    platforms: Vec<String>,
    /// Comma-separated languages the user must all have.
    #[arg(long, value_delimiter = ',')]
    languages: Vec<String>,
    /// At least this much xp.
    #[arg(long)]
    min_xp: Option<u64>,
    /// At most this much xp.
    #[arg(long)]
    max_xp: Option<u64>,
    /// Only users live now with a public space.
    #[arg(long)]
    live: bool,
    /// How many users (the server clamps to 1..100; default 25).
    #[arg(long)]
    limit: Option<u32>,
    /// How many candidates, by xp, the text is checked against (clamped to limit..1000; default 400).
    #[arg(long)]
    scan: Option<u32>,
    #[command(flatten)]
    connection: ConnectionArgs,
}

#[derive(Debug, Args)]
struct LiveArgs {
    /// How many users (the server clamps to 1..100; default 100).
    #[arg(long)]
    limit: Option<u32>,
    #[command(flatten)]
    connection: ConnectionArgs,
}

#[derive(Debug, Args)]
struct ShowArgs {
    /// The user's wallet (0x + 40 hex digits).
    wallet: Wallet,
    #[command(flatten)]
    connection: ConnectionArgs,
}

pub(crate) fn run(args: UsersArgs) -> ExitCode {
    let outcome = match args.command {
        UsersCommand::Search(search) => block_on(run_search(search)),
        UsersCommand::Live(live) => block_on(run_live(live)),
        UsersCommand::Show(show) => block_on(run_show(show)),
    };
    exit_code(outcome.and_then(|result| result))
}

async fn run_search(args: SearchArgs) -> anyhow::Result<ExitCode> {
    let mut search = UserSearch::new();
    search.q = args.query;
    search.domains = args.domains;
    search.platforms = args.platforms;
    search.languages = args.languages;
    search.min_xp = args.min_xp;
    search.max_xp = args.max_xp;
    search.live = args.live;
    search.limit = args.limit;
    search.scan = args.scan;
    let page = args.connection.keyed_client()?.search_users(&search).await?;
    if args.connection.json {
        let mut value = json!({"users": page.users, "total": page.total});
        add_degraded(&mut value, page.degraded.as_ref());
        print_json(&value)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut table = Table::new(["WALLET", "NAME", "XP", "LIVE", "LANGUAGES"]);
    for user in &page.users {
        table.row([
            user.wallet.to_string(),
            one_line(&user.display_name),
            user.xp.to_string(),
            yes_no(user.live),
            user.languages.join(","),
        ]);
    }
    let total = page.total.map_or_else(String::new, |total| {
        format!("{} of {total} matching\n", page.users.len())
    });
    print_text(&format!(
        "{}{}{total}",
        degraded_note(page.degraded.as_ref()),
        table.render()
    ))?;
    Ok(ExitCode::SUCCESS)
}

async fn run_live(args: LiveArgs) -> anyhow::Result<ExitCode> {
    let live = args.connection.keyed_client()?.live_users(args.limit).await?;
    if args.connection.json {
        let mut value = json!({"live": live.live});
        add_degraded(&mut value, live.degraded.as_ref());
        print_json(&value)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut table = Table::new(["WALLET", "NAME", "PLATFORM", "LIVE SINCE", "SPACE"]);
    for user in &live.live {
        table.row([
            user.wallet.to_string(),
            one_line(&user.display_name),
            one_line(&user.platform),
            user.live_since.map_or_else(|| "-".to_owned(), utc),
            one_line(&user.space_url),
        ]);
    }
    print_text(&format!(
        "{}{}",
        degraded_note(live.degraded.as_ref()),
        table.render()
    ))?;
    Ok(ExitCode::SUCCESS)
}

async fn run_show(args: ShowArgs) -> anyhow::Result<ExitCode> {
    let user = args.connection.keyed_client()?.get_user(args.wallet).await?;
    if args.connection.json {
        print_json(&user)?;
        return Ok(ExitCode::SUCCESS);
    }
    print_text(&user_table(&user))?;
    Ok(ExitCode::SUCCESS)
}

fn user_table(user: &User) -> String {
    let or_dash = |text: &str| {
        if text.is_empty() {
            "-".to_owned()
        } else {
            one_line(text)
        }
    };
    let time = |ms: Option<i64>| ms.map_or_else(|| "-".to_owned(), utc);
    let mut table = Table::new(["FIELD", "VALUE"]);
    table.row(["wallet".to_owned(), user.wallet.to_string()]);
    table.row(["display name".to_owned(), or_dash(&user.display_name)]);
    table.row(["xp".to_owned(), user.xp.to_string()]);
    table.row(["live".to_owned(), yes_no(user.live)]);
    table.row(["space public".to_owned(), yes_no(user.space_public)]);
    table.row(["space url".to_owned(), or_dash(&user.space_url)]);
    table.row(["picture".to_owned(), or_dash(&user.pfp_url)]);
    table.row(["domains".to_owned(), or_dash(&user.domains.join(","))]);
    table.row(["platforms".to_owned(), or_dash(&user.platforms.join(","))]);
    table.row(["languages".to_owned(), or_dash(&user.languages.join(","))]);
    table.row(["last seen".to_owned(), time(user.last_seen)]);
    table.row(["last heartbeat".to_owned(), time(user.last_heartbeat)]);
    table.render()
}

fn yes_no(flag: bool) -> String {
    if flag { "yes" } else { "no" }.to_owned()
}
