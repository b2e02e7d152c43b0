//! The spend permission manager contract on anvil, through the server's own chain: the shared scenario of
//! `spend_charges.rs` (exact balances, the per-period allowance, forged signature, revocation, a period
//! later), the contract's EIP-712 hash equal to payments-core's, and a contract account (ERC-1271).

use payments_core::{SpendPermission, Wallet};
use payments_server::testing::{TestOptions, TestSpend, sign_hash, sign_permission, wallet_of_key};
use serde_json::Value;

use crate::anvil::{Anvil, DEPLOYER_KEY};
use crate::chain_anvil::bootstrap;
use crate::helpers::Api;
use crate::spend_charges::{
    ALLOWANCE, FEE, MERCHANT, NET, PLATFORM, SpendWorld, charge_of, charges_stay_within_the_signed_allowance,
    monthly,
};

/// anvil's third default account: the customer.
const CUSTOMER_KEY: &str = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";

fn key_bytes(key: &str) -> [u8; 32] {
    hex::decode(key.trim_start_matches("0x"))
        .unwrap()
        .try_into()
        .unwrap()
}

/// The permission as `cast` takes a `SpendPermission` tuple.
fn tuple(permission: &SpendPermission) -> String {
    format!(
        "({},{},{},{},{},{},{},{},0x{})",
        permission.account,
        permission.spender,
        permission.token,
        permission.allowance,
        permission.period,
        permission.start,
        permission.end,
        permission.salt,
        hex::encode(&permission.extra_data)
    )
}

struct AnvilWorld {
    anvil: Anvil,
    api: Api,
}

impl AnvilWorld {
    /// anvil, `chain bootstrap` on it, and a server with anvil's first account as relayer.
    async fn start() -> Option<AnvilWorld> {
        let anvil = Anvil::start()?;
        let contracts = bootstrap(&anvil);
        assert_eq!(
            contracts.spend_permission_manager,
            payments_server::ChainContracts::DEVELOPMENT.spend_permission_manager,
            "a fresh anvil's nonce 3 is the development manager"
        );
        let api = Api::spawn_with(TestOptions {
            node: Some(payments_server::testing::TestNode {
                rpc_url: anvil.rpc_url.clone(),
                contracts,
                relayer_key: DEPLOYER_KEY.to_owned(),
            }),
            ..TestOptions::default()
        })
        .await;
        Some(AnvilWorld { anvil, api })
    }
}

impl SpendWorld for AnvilWorld {
    fn spend(&self) -> TestSpend {
        self.api.app.spend()
    }

    fn customer_key(&self) -> [u8; 32] {
        key_bytes(CUSTOMER_KEY)
    }

    async fn now(&self) -> u64 {
        self.anvil
            .cast(&["block", "latest", "--field", "timestamp"])
            .parse()
            .unwrap()
    }

    async fn fund(&self, owner: Wallet, units: u128) {
        let token = self.spend().token().to_string();
        self.anvil.send(
            DEPLOYER_KEY,
            &token,
            "mint(address,uint256)",
            &[&owner.to_string(), &units.to_string()],
        );
    }

    async fn approve_manager(&self, owner: Wallet, units: u128) {
        assert_eq!(owner, wallet_of_key(self.customer_key()));
        let spend = self.spend();
        self.anvil.send(
            CUSTOMER_KEY,
            &spend.token().to_string(),
            "approve(address,uint256)",
            &[&spend.manager().to_string(), &units.to_string()],
        );
    }

    async fn advance(&self, secs: u64) {
        self.anvil.cast(&["rpc", "evm_increaseTime", &secs.to_string()]);
        self.anvil.mine(1);
    }

    async fn revoke(&self, permission: &SpendPermission) {
        self.anvil.send(
            CUSTOMER_KEY,
            &self.spend().manager().to_string(),
            "revoke((address,address,address,uint160,uint48,uint48,uint48,uint256,bytes))",
            &[&tuple(permission)],
        );
    }
}

#[tokio::test]
async fn the_manager_contract_charges_within_the_signed_allowance_per_period() {
    let Some(world) = AnvilWorld::start().await else {
        return;
    };

    let refusals = charges_stay_within_the_signed_allowance(&world).await;

    assert_eq!(refusals.len(), 3);
    for refusal in refusals {
        assert!(refusal.starts_with("transaction failed"), "{refusal}");
        assert!(!refusal.contains(&world.anvil.rpc_url), "{refusal}");
    }
}

#[tokio::test]
async fn the_contract_hashes_a_permission_as_payments_core_does() {
    let Some(world) = AnvilWorld::start().await else {
        return;
    };
    let spend = world.spend();
    let mut permission = monthly(&spend, wallet_of_key(world.customer_key()), world.now().await, 9);
    permission.extra_data = vec![0xde, 0xad, 0xbe, 0xef].into();

    let on_chain = world.anvil.cast(&[
        "call",
        &spend.manager().to_string(),
        "getHash((address,address,address,uint160,uint48,uint48,uint48,uint256,bytes))(bytes32)",
        &tuple(&permission),
    ]);

    assert_eq!(on_chain, permission.signing_hash(&spend.domain()).to_string());
}

/// `contracts/artifacts/TestWallet.json`'s creation code.
fn test_wallet_code() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../contracts/artifacts/TestWallet.json"
    );
    let artifact: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    artifact["bytecode"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_contract_account_approves_by_erc1271_and_is_charged() {
    let Some(world) = AnvilWorld::start().await else {
        return;
    };
    let spend = world.spend();
    let owner = wallet_of_key(world.customer_key());
    let created: Value = serde_json::from_str(&world.anvil.cast(&[
        "send",
        "--json",
        "--private-key",
        CUSTOMER_KEY,
        "--create",
        &test_wallet_code(),
        "constructor(address)",
        &owner.to_string(),
    ]))
    .unwrap();
    let account: Wallet = created["contractAddress"].as_str().unwrap().parse().unwrap();
    world.fund(account, 50_000_000).await;
    let approve = world.anvil.cast(&[
        "calldata",
        "approve(address,uint256)",
        &spend.manager().to_string(),
        "1000000000",
    ]);
    world.anvil.send(
        CUSTOMER_KEY,
        &account.to_string(),
        "execute(address,bytes)",
        &[&spend.token().to_string(), &approve],
    );
    let permission = monthly(&spend, account, world.now().await, 3);
    let hash = permission.signing_hash(&spend.domain());
    // The wallet accepts its owner's signature of the hash; another key's is refused, and an EOA has none.
    let signature = sign_permission(world.customer_key(), &permission, &spend.domain());
    let stranger = sign_hash([0x77; 32], hash);
    assert_eq!(
        spend.is_valid_contract_signature(account, hash, &signature).await,
        Ok(true)
    );
    assert_eq!(
        spend.is_valid_contract_signature(account, hash, &stranger).await,
        Ok(false)
    );
    assert_eq!(
        spend.is_valid_contract_signature(owner, hash, &signature).await,
        Ok(false)
    );

    assert!(
        spend
            .charge(&charge_of(&permission, stranger, FEE, NET))
            .await
            .is_err()
    );
    spend
        .charge(&charge_of(&permission, signature, FEE, NET))
        .await
        .unwrap();

    assert_eq!(spend.balance(account).await, 50_000_000 - ALLOWANCE);
    assert_eq!(spend.balance(MERCHANT.parse().unwrap()).await, NET);
    assert_eq!(spend.balance(PLATFORM.parse().unwrap()).await, FEE);
}
