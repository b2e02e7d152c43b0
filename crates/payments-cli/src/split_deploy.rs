//! `payments split deploy`: configure the merchant's split with the stored admin session.
//!
//! Orders and terminal sales are refused (`split_required`) until the merchant has a split, so this is
//! usually the first admin command after `payments admin login`. The server checks the recipients (shares
//! summing to 10000 bps, the platform's share present); the CLI only parses them.

use std::process::ExitCode;

use clap::Args;
use payments_client::DeploySplit;
use payments_core::{SplitRecipient, Wallet};

use crate::admin_session::{self, SessionArgs};
use crate::connection::{ConnectionArgs, block_on};
use crate::output::{print_json, print_text};
use crate::report::{exit_code, failure};
use crate::settings::split_text;

/// Configure the split (admin session).
#[derive(Debug, Args)]
pub(crate) struct DeployArgs {
    /// A recipient `0xADDRESS:BPS` (basis points, all summing to 10000 with the platform's share);
    /// repeat for more. Without any, the server pays the platform its share and the merchant the rest.
    #[arg(long = "recipient", value_name = "0xADDR:BPS")]
    recipients: Vec<String>,
    /// Replace the current split (it moves to the history); without it a configured split is kept.
    #[arg(long)]
    replace: bool,
    /// A split contract deployed elsewhere; without it the server uses its split factory's CREATE2 address for the recipients.
    #[arg(long, value_name = "0xADDR")]
    split_address: Option<String>,
    #[command(flatten)]
    connection: ConnectionArgs,
    #[command(flatten)]
    session: SessionArgs,
}

pub(crate) fn run(args: DeployArgs) -> ExitCode {
    exit_code(block_on(deploy(args)).and_then(|result| result))
}

async fn deploy(args: DeployArgs) -> anyhow::Result<ExitCode> {
    let mut request = if args.recipients.is_empty() {
        DeploySplit::default()
    } else {
        let recipients = args
            .recipients
            .iter()
            .map(|text| parse_recipient(text))
            .collect::<anyhow::Result<_>>()?;
        DeploySplit::with_recipients(recipients)
    };
    if let Some(address) = &args.split_address {
        let address = Wallet::parse(address)
            .map_err(|error| failure("invalid_input", format!("--split-address: {error}")))?;
        request = request.split_address(address);
    }
    if args.replace {
        request = request.replacing();
    }
    let (client, session) = admin_session::signed_in(&args.connection, &args.session)?;
    let deployed = client
        .deploy_split(&session, &request)
        .await
        .map_err(admin_session::refused)?;
    if args.connection.json {
        print_json(&deployed)?;
        return Ok(ExitCode::SUCCESS);
    }
    let outcome = if deployed.replaced {
        "split replaced (the previous one is in the split history)"
    } else if deployed.idempotent {
        "split unchanged: one is already configured (--replace changes it)"
    } else {
        "split deployed"
    };
    print_text(&format!("{outcome}\n{}", split_text(&deployed.split)))?;
    Ok(ExitCode::SUCCESS)
}

fn parse_recipient(text: &str) -> anyhow::Result<SplitRecipient> {
    let (address, bps) = text.rsplit_once(':').ok_or_else(|| {
        failure(
            "invalid_input",
            format!("--recipient {text:?}: expected 0xADDRESS:BPS"),
        )
    })?;
    let address = Wallet::parse(address)
        .map_err(|error| failure("invalid_input", format!("--recipient {text:?}: {error}")))?;
    let shares_bps = bps.parse().map_err(|_| {
        failure(
            "invalid_input",
            format!("--recipient {text:?}: BPS must be a whole number of basis points"),
        )
    })?;
    Ok(SplitRecipient { address, shares_bps })
}

#[cfg(test)]
mod tests {
    use super::parse_recipient;

    #[test]
    fn a_recipient_is_an_address_and_basis_points() {
        let recipient = parse_recipient("0x2c7536e3605d9c16a7a3d7b1898e529396a65c23:9950").unwrap();

        assert_eq!(recipient.shares_bps, 9950);
        assert!(parse_recipient("0x2c7536e3605d9c16a7a3d7b1898e529396a65c23").is_err());
        assert!(parse_recipient("0x2c7536e3605d9c16a7a3d7b1898e529396a65c23:1.5").is_err());
        assert!(parse_recipient("nope:50").is_err());
    }
}
