//! `payments subscriptions subscribe --plan P --private-key-file F [--rpc-url U]`: subscribes the key's
//! wallet to a plan as a wallet app would: fetches the plan's permission document, sends the ERC-20
//! approval of the spend permission manager when the server says it is needed (through `--rpc-url`), signs
//! the EIP-712 permission and creates the subscription.

use std::path::PathBuf;

use alloy::network::EthereumWallet;
use alloy::primitives::U256;
use alloy::providers::{Provider, ProviderBuilder};
use alloy::signers::local::PrivateKeySigner;
use anyhow::Context;
use clap::Args;
use k256::ecdsa::SigningKey;
use payments_client::{CreateSubscription, TokenApproval, wallet_of_key};

use crate::admin_key::read_signing_key;
use crate::connection::ConnectionArgs;
use crate::output::{print_json, print_text, utc};
use crate::report::{failure, failure_with_hint};

mod erc20 {
    #![allow(missing_docs, unreachable_pub, missing_debug_implementations)]

    alloy::sol! {
        #[sol(rpc)]
        interface IApprove {
            function approve(address spender, uint256 amount) external returns (bool);
        }
    }
}

#[derive(Debug, Args)]
pub(crate) struct SubscribeArgs {
    /// The plan (plan_...).
    #[arg(long)]
    plan: String,
    /// The subscribing wallet's private key (0x and 64 hex digits; readable by its owner only).
    #[arg(long)]
    private_key_file: PathBuf,
    /// JSON-RPC URL of the chain, to send the token approval when one is needed.
    #[arg(long, env = "PAYMENTS_RPC_URL")]
    rpc_url: Option<url::Url>,
    #[command(flatten)]
    connection: ConnectionArgs,
}

pub(crate) async fn run(args: SubscribeArgs) -> anyhow::Result<std::process::ExitCode> {
    let key = read_signing_key(&args.private_key_file)?;
    let customer = wallet_of_key(&key);
    let client = args.connection.client()?;
    let offer = client.subscription_permission(&args.plan, customer).await?;
    let approval_hash = match (&offer.approval, &args.rpc_url) {
        (TokenApproval { needed: false, .. }, _) => None,
        (approval, Some(rpc_url)) => {
            Some(approve(rpc_url, &key, approval, offer.typed_data.domain.chain_id).await?)
        }
        (approval, None) => {
            return Err(failure_with_hint(
                "approval_needed",
                format!(
                    "{customer} must first approve {} on the token {}",
                    approval.spender, approval.token
                ),
                "give --rpc-url (the chain's JSON-RPC URL) to send the approval",
            ));
        }
    };
    let create = CreateSubscription::sign(&args.plan, &offer.typed_data, &key)?;
    let subscription = client.subscribe(&create).await?;
    if args.connection.json {
        print_json(&subscription)?;
    } else {
        let approved = approval_hash.map_or_else(String::new, |hash| format!("approved in {hash}\n"));
        let next = subscription.next_charge_at.map_or_else(|| "-".to_owned(), utc);
        print_text(&format!(
            "{approved}subscribed {customer}: {} {}, next charge {next}\n",
            subscription.subscription_id, subscription.status
        ))?;
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// Sends `token.approve(spender, amount)` from the key's wallet and waits for it to be mined; refuses a
/// node of another chain than the permission's.
pub(crate) async fn approve(
    rpc_url: &url::Url,
    key: &SigningKey,
    approval: &TokenApproval,
    chain_id: u64,
) -> anyhow::Result<String> {
    let signer = PrivateKeySigner::from_signing_key(key.clone());
    let provider = ProviderBuilder::new()
        .wallet(EthereumWallet::from(signer))
        .connect_http(rpc_url.clone());
    let node_chain = provider
        .get_chain_id()
        .await
        .context("cannot read the chain id of --rpc-url")?;
    if node_chain != chain_id {
        return Err(failure(
            "wrong_chain",
            format!("--rpc-url is chain {node_chain}, the permission is for chain {chain_id}"),
        ));
    }
    let amount: U256 = approval
        .amount
        .parse()
        .map_err(|_| failure("invalid_answer", "the approval amount is not a decimal integer"))?;
    let token = erc20::IApprove::new(approval.token.address(), &provider);
    let receipt = token
        .approve(approval.spender.address(), amount)
        .send()
        .await
        .context("the approval was not sent")?
        .get_receipt()
        .await
        .context("the approval was not mined")?;
    if !receipt.status() {
        return Err(failure(
            "approval_failed",
            format!("the approval {} reverted", receipt.transaction_hash),
        ));
    }
    Ok(receipt.transaction_hash.to_string())
}
