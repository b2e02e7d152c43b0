//! `payments graphql QUERY`: runs a read-only GraphQL query (scope graphql:read) and prints the answer as
//! JSON. GraphQL errors are part of the answer; the exit code is 1 when there are any.

use std::process::ExitCode;

use anyhow::Context as _;
use clap::Args;
use serde_json::Value;

use crate::connection::{ConnectionArgs, block_on};
use crate::output::print_json;
use crate::report::exit_code;

/// Run a GraphQL query and print its JSON answer.
#[derive(Debug, Args)]
pub(crate) struct GraphqlArgs {
    /// The query, e.g. '{ leaderboard(first: 5) { wallet xp } }'.
    query: String,
    /// Variables as a JSON object.
    #[arg(long, value_name = "JSON")]
    variables: Option<String>,
    #[command(flatten)]
    connection: ConnectionArgs,
}

pub(crate) fn run(args: GraphqlArgs) -> ExitCode {
    exit_code(block_on(query(args)).and_then(|result| result))
}

async fn query(args: GraphqlArgs) -> anyhow::Result<ExitCode> {
    let variables: Option<Value> = args
        .variables
        .as_deref()
        .map(serde_json::from_str)
        .transpose()
        .context("--variables must be a JSON object")?;
    let client = args.connection.keyed_client()?;
    let answer = client.graphql(&args.query, variables.as_ref()).await?;
    print_json(&answer)?;
    Ok(if answer.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
