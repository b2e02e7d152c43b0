//! ERC-6492: a customer whose smart wallet does not exist yet (a counterfactual `TestWallet` of
//! `TestWalletFactory`) subscribes with a wrapped signature. On anvil the server verifies it in one deployless
//! `eth_call` (nothing deployed by the create), refuses wrong ones with `signer_mismatch`, and charges once
//! the wallet is deployed, with exact amounts (refusals: `subscriptions_6492_refusals.rs`). Anvil tests are
//! skipped (with a message) when anvil is not installed, except under `CI=true`.

use payments_core::{CounterfactualSignature, SpendPermission, SpendPermissionData, SpendPermissionDomain};
use payments_server::testing::{TEST_CRON_SECRET, TestOptions, sign_permission};
use reqwest::Method;
use serde_json::{Value, json};

use crate::anvil::{Anvil, DEPLOYER_KEY};
use crate::chain_anvil::bootstrap;
use crate::helpers::{Api, Reply, send};
use crate::subscription_helpers::{create, weekly_plan};

/// anvil's third default account: the wallet's owner key (it pays the gas of its wallet's calls).
pub(crate) const OWNER_KEY: &str = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";
const OWNER: &str = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
/// The relayer (anvil's first account) is the platform's spender.
const RELAYER: &str = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
const PLATFORM: &str = "0x5050505050505050505050505050505050505050";
const PRICE: u128 = 9_990_000;
const FEE: u128 = 49_950;
const NET: u128 = 9_940_050;
const WEEK: u64 = 604_800;
const DAY: u64 = 86_400;
/// The wallet's CREATE2 salt at the factory.
pub(crate) const SALT: u64 = 7;

fn key_bytes(hex_key: &str) -> [u8; 32] {
    hex::decode(hex_key.trim_start_matches("0x"))
        .unwrap()
        .try_into()
        .unwrap()
}

fn artifact_code(name: &str) -> String {
    let path = format!(
        "{}/../../contracts/artifacts/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let artifact: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    artifact["bytecode"].as_str().unwrap().to_owned()
}

/// anvil with the platform's contracts, a `TestWalletFactory`, a server on it and a weekly plan.
pub(crate) struct World {
    anvil: Anvil,
    api: Api,
    pub(crate) token: String,
    manager: String,
    pub(crate) factory: String,
    plan_id: String,
}

impl World {
    pub(crate) async fn start() -> Option<World> {
        let anvil = Anvil::start()?;
        let contracts = bootstrap(&anvil);
        let api = Api::spawn_with(TestOptions {
            node: Some(anvil.node(contracts)),
            ..TestOptions::default()
        })
        .await;
        let deployed: Value = serde_json::from_str(&anvil.cast(&[
            "send",
            "--json",
            "--private-key",
            DEPLOYER_KEY,
            "--create",
            &artifact_code("TestWalletFactory"),
        ]))
        .unwrap();
        let world = World {
            factory: deployed["contractAddress"].as_str().unwrap().to_owned(),
            token: contracts.token.to_string(),
            manager: contracts.spend_permission_manager.unwrap().to_string(),
            plan_id: String::new(),
            anvil,
            api,
        };
        // The server's clock starts at the chain's time, so both agree on the periods.
        world
            .api
            .app
            .clock
            .set(i64::try_from(world.now()).unwrap() * 1000);
        let plan_id = weekly_plan(&world.api).await;
        Some(World { plan_id, ..world })
    }

    fn now(&self) -> u64 {
        self.anvil.now_secs()
    }

    /// The counterfactual wallet of `OWNER` for `salt` (no code there until `createAccount`).
    pub(crate) fn wallet(&self, salt: u64) -> String {
        self.anvil.cast(&[
            "call",
            &self.factory,
            "accountAddress(address,uint256)(address)",
            OWNER,
            &salt.to_string(),
        ])
    }

    pub(crate) fn has_code(&self, account: &str) -> bool {
        self.anvil.cast(&["code", account]) != "0x"
    }

    pub(crate) fn create_account_call(&self, salt: u64) -> Vec<u8> {
        let calldata = self.anvil.cast(&[
            "calldata",
            "createAccount(address,uint256)",
            OWNER,
            &salt.to_string(),
        ]);
        hex::decode(calldata.trim_start_matches("0x")).unwrap()
    }

    /// The weekly permission of `account` from a little before now, for a year.
    pub(crate) fn permission(&self, account: &str, salt: u64) -> SpendPermissionData {
        let start = self.now() - 10;
        SpendPermissionData {
            account: account.to_owned(),
            spender: RELAYER.to_owned(),
            token: self.token.clone(),
            allowance: PRICE.to_string(),
            period: WEEK,
            start,
            end: start + 365 * DAY,
            salt: salt.to_string(),
            extra_data: "0x".to_owned(),
        }
    }

    fn domain(&self) -> SpendPermissionDomain {
        SpendPermissionDomain {
            chain_id: 31_337,
            verifying_contract: self.manager.parse().unwrap(),
        }
    }

    /// `key`'s signature of the permission as the wallet checks it (its ERC-1271 recovers the hash's signer).
    pub(crate) fn inner_signature(&self, key: &str, data: &SpendPermissionData) -> Vec<u8> {
        let permission: SpendPermission = data.parse().unwrap();
        sign_permission(key_bytes(key), &permission, &self.domain())
    }

    pub(crate) async fn subscribe(&self, data: &SpendPermissionData, signature: &[u8]) -> Reply {
        create(
            &self.api,
            &json!({
                "planId": self.plan_id,
                "customerWallet": data.account,
                "permissionSignature": format!("0x{}", hex::encode(signature)),
                "permissionData": data,
            }),
        )
        .await
    }

    async fn batch(&self) -> Value {
        let reply = send(
            self.api
                .anonymous(Method::POST, "/api/cron/charge-subscriptions")
                .header("x-cron-secret", TEST_CRON_SECRET),
        )
        .await;
        assert_eq!(reply.status, 200, "{}", reply.json);
        reply.json
    }

    /// Anyone deploys the wallet through its factory; its owner then approves the manager on the token
    /// through the wallet (as a smart wallet's first transaction would).
    fn deploy_and_approve(&self, account: &str) {
        self.anvil.send(
            DEPLOYER_KEY,
            &self.factory,
            "createAccount(address,uint256)",
            &[OWNER, &SALT.to_string()],
        );
        let approve = self.anvil.cast(&[
            "calldata",
            "approve(address,uint256)",
            &self.manager,
            &u128::MAX.to_string(),
        ]);
        self.anvil.send(
            OWNER_KEY,
            account,
            "execute(address,bytes)",
            &[&self.token, &approve],
        );
    }

    fn mint(&self, to: &str, units: u128) {
        self.anvil.send(
            DEPLOYER_KEY,
            &self.token,
            "mint(address,uint256)",
            &[to, &units.to_string()],
        );
    }

    fn balance(&self, owner: &str) -> u128 {
        self.anvil.balance(&self.token, owner)
    }

    /// Moves the chain `secs` on, and the server's clock to the chain's time.
    async fn advance(&self, secs: u64) {
        self.anvil.cast(&["rpc", "evm_increaseTime", &secs.to_string()]);
        self.anvil.mine(1);
        let to = i64::try_from(self.now()).unwrap() * 1000;
        let reply = send(
            self.api
                .anonymous(Method::POST, "/api/test-clock/advance")
                .header("x-cron-secret", TEST_CRON_SECRET)
                .json(&json!({ "to": to })),
        )
        .await;
        assert_eq!(reply.status, 200, "{}", reply.json);
    }
}

pub(crate) fn wrap(factory: &str, factory_calldata: Vec<u8>, inner: Vec<u8>) -> Vec<u8> {
    CounterfactualSignature {
        factory: factory.parse().unwrap(),
        factory_calldata: factory_calldata.into(),
        inner: inner.into(),
    }
    .to_bytes()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_wallet_not_deployed_yet_subscribes_by_erc6492_and_is_charged_exactly_once_it_exists() {
    let Some(world) = World::start().await else { return };
    let account = world.wallet(SALT);
    let merchant = world.api.app.wallet.to_string();
    world.mint(&account, 3 * PRICE);
    let data = world.permission(&account, 1);
    let signature = wrap(
        &world.factory,
        world.create_account_call(SALT),
        world.inner_signature(OWNER_KEY, &data),
    );

    let created = world.subscribe(&data, &signature).await;

    assert_eq!(created.status, 201, "{}", created.json);
    assert!(
        !world.has_code(&account),
        "verifying the signature deployed the wallet"
    );

    let early = world.batch().await;

    assert_eq!(
        (early["succeeded"].as_u64(), early["failed"].as_u64()),
        (Some(0), Some(1)),
        "{early}"
    );
    assert_eq!(early["results"][0]["status"], "failed");
    assert!(
        early["results"][0]["error"]
            .as_str()
            .unwrap()
            .contains("not deployed yet"),
        "{early}"
    );
    assert_eq!(world.balance(&account), 3 * PRICE);

    world.deploy_and_approve(&account);
    // The failure policy retries the same period a day later.
    world.advance(DAY).await;
    let charged = world.batch().await;

    assert_eq!(charged["succeeded"], 1, "{charged}");
    assert_eq!(world.balance(&account), 2 * PRICE);
    assert_eq!(world.balance(&merchant), NET);
    assert_eq!(world.balance(PLATFORM), FEE);
    assert_eq!(world.batch().await["processed"], 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_erc6492_signature_of_a_wallet_deployed_meanwhile_is_checked_and_charged_unwrapped() {
    let Some(world) = World::start().await else { return };
    let account = world.wallet(SALT);
    let merchant = world.api.app.wallet.to_string();
    world.mint(&account, PRICE);
    let data = world.permission(&account, 1);
    // Signed while the wallet did not exist, sent after its first transaction deployed it.
    let signature = wrap(
        &world.factory,
        world.create_account_call(SALT),
        world.inner_signature(OWNER_KEY, &data),
    );
    world.deploy_and_approve(&account);

    let created = world.subscribe(&data, &signature).await;
    let batch = world.batch().await;

    assert_eq!(created.status, 201, "{}", created.json);
    assert_eq!(batch["succeeded"], 1, "{batch}");
    assert_eq!(world.balance(&account), 0);
    assert_eq!(world.balance(&merchant), NET);
    assert_eq!(world.balance(PLATFORM), FEE);
}
