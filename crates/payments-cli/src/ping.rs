//! `payments ping`: check the key and show what it grants.

use std::process::ExitCode;

use clap::Args;

use crate::connection::{ConnectionArgs, block_on};
use crate::output::{Table, print_json, print_text, utc_ms};
use crate::report::exit_code;

/// Check the key against the service and show the merchant, subscription and scopes it grants.
#[derive(Debug, Args)]
pub(crate) struct PingArgs {
    #[command(flatten)]
    pub(crate) connection: ConnectionArgs,
}

/// Runs `payments ping`, printing any error; the exit code says how it went.
pub(crate) fn run(args: PingArgs) -> ExitCode {
    exit_code(block_on(ping(args)).and_then(|result| result))
}

async fn ping(args: PingArgs) -> anyhow::Result<ExitCode> {
    let client = args.connection.keyed_client()?;
    let ping = client.ping().await?;
    if args.connection.json {
        print_json(&ping)?;
    } else {
        let mut table = Table::new(["FIELD", "VALUE"]);
        table.row(["ok".to_owned(), ping.ok.to_string()]);
        table.row(["merchant".to_owned(), ping.merchant.to_string()]);
        table.row(["subscription".to_owned(), ping.subscription_id]);
        table.row(["scopes".to_owned(), ping.scopes.join(", ")]);
        table.row(["server time".to_owned(), utc_ms(ping.server_time)]);
        table.row(["version".to_owned(), ping.version]);
        print_text(&table.render())?;
    }
    Ok(ExitCode::SUCCESS)
}
