//! `payments-server chain bootstrap`: deploys the platform's factories (and, for development and tests, the
//! test token) and answers the [`ChainContracts`] object that `--chain-contracts` reads.
//!
//! Order matters for development: from a fresh anvil's first account, split factory, deposit factory, test
//! token and spend permission manager land at nonces 0, 1, 2 and 3, the addresses of
//! [`ChainContracts::DEVELOPMENT`].

use payments_core::{
    DEPOSIT_FACTORY_CREATION_CODE, SPEND_PERMISSION_MANAGER_CREATION_CODE, SPLIT_FACTORY_CREATION_CODE,
    TEST_TOKEN_CREATION_CODE, Wallet,
};

use crate::chain::rpc::{RelayerKey, RpcChain};
use crate::chain::{Chain, ChainError};
use crate::domain::chain::ChainContracts;

/// What to deploy.
#[derive(Debug, Clone)]
pub struct BootstrapPlan {
    /// The node.
    pub rpc_url: url::Url,
    /// The deployer's private key; never logged.
    pub deployer_key: RelayerKey,
    /// Deploy the 6-decimal test token too (development and tests only).
    pub with_test_token: bool,
    /// The payment token when no test token is deployed (e.g. USDC on the chain).
    pub token: Option<Wallet>,
}

/// Deploys the contracts of `plan` and returns their addresses.
///
/// # Errors
/// When neither a token nor `with_test_token` is given, the key is invalid, the node is unreachable or a
/// deployment reverts.
pub async fn bootstrap(plan: &BootstrapPlan) -> Result<ChainContracts, ChainError> {
    if plan.token.is_none() && !plan.with_test_token {
        return Err(ChainError::NotConfigured(
            "name the payment token (--token-address) or deploy the test token (--with-test-token)"
                .to_owned(),
        ));
    }
    let chain = RpcChain::connect(&plan.rpc_url, Some(&plan.deployer_key));
    let chain_id = chain.chain_id().await?;
    let split_factory = chain.deploy_code(SPLIT_FACTORY_CREATION_CODE).await?;
    let deposit_factory = chain.deploy_code(DEPOSIT_FACTORY_CREATION_CODE).await?;
    let token = match plan.token {
        Some(token) if !plan.with_test_token => token,
        _ => chain.deploy_code(TEST_TOKEN_CREATION_CODE).await?,
    };
    // After the token, so development addresses stay those of nonces 0..=3.
    let spend_permission_manager = chain.deploy_code(SPEND_PERMISSION_MANAGER_CREATION_CODE).await?;
    Ok(ChainContracts {
        chain_id,
        token,
        split_factory,
        deposit_factory,
        spend_permission_manager: Some(spend_permission_manager),
    })
}
