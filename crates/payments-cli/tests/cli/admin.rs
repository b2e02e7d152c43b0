//! `payments admin login | me | logout`, `payments split deploy` and the admin receipt commands
//! (`mark-paid`, `refund`, `terminal`) against a spawned server.

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use payments_client::{AdminRole, AdminSession, Client, UpsertInventoryItem};
use payments_core::{Cents, Wallet};
use payments_server::testing::{TEST_ADMIN_PRIVATE_KEY, TEST_ADMIN_WALLET, TestApp, spawn_app};
use serde_json::Value;
use tempfile::TempDir;

use crate::helpers::{Run, client_with_key, payments_with_env};

const BUYER: &str = "0x3333333333333333333333333333333333333333";
const LOGIN_HINT: &str = "run `payments admin login`";

/// `login` dates the sign-in with this machine's clock and the server refuses one more than 5 minutes
/// from its own, which starts in 2023 in tests: move the server to real time first.
fn set_real_time(app: &TestApp) -> i64 {
    let now_ms = i64::try_from(SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis()).unwrap();
    app.clock.set(now_ms);
    now_ms
}

fn key_hex() -> String {
    TEST_ADMIN_PRIVATE_KEY
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

fn tx(byte: &str) -> String {
    format!("0x{}", byte.repeat(32))
}

fn mode(path: impl AsRef<Path>) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// A temp dir holding the admin key file and, once logged in, the session file (in a subdirectory
/// that `login` creates).
struct Files {
    dir: TempDir,
    key_file: String,
    session_file: PathBuf,
}

impl Files {
    fn new(key_mode: u32) -> Files {
        let dir = tempfile::tempdir().unwrap();
        let key_file = dir.path().join("admin.key");
        std::fs::write(&key_file, format!("  0x{}\n", key_hex())).unwrap();
        std::fs::set_permissions(&key_file, std::fs::Permissions::from_mode(key_mode)).unwrap();
        let session_file = dir.path().join("state").join("admin-session.json");
        Files {
            key_file: key_file.to_str().unwrap().to_owned(),
            session_file,
            dir,
        }
    }

    /// `payments ARGS` with this session file and the subscription key `key` (or none).
    async fn run(&self, app: &TestApp, key: Option<&str>, args: &[&str]) -> Run {
        let env = [("PAYMENTS_ADMIN_SESSION", self.session_file.to_str().unwrap())];
        payments_with_env(app, key, &env, args).await
    }

    async fn login(&self, app: &TestApp) -> Run {
        self.run(
            app,
            None,
            &["admin", "login", "--private-key-file", &self.key_file],
        )
        .await
    }

    fn stored(&self) -> Value {
        serde_json::from_slice(&std::fs::read(&self.session_file).unwrap()).unwrap()
    }

    /// The stored session's tokens.
    fn tokens(&self) -> [String; 2] {
        let stored = self.stored();
        ["sessionToken", "csrfToken"].map(|field| stored[field].as_str().unwrap().to_owned())
    }
}

/// `payments receipts refund ID --usd USD --simulate` to the test buyer: the test-mode chain sends it.
async fn refund(files: &Files, app: &TestApp, id: &str, usd: &str, key: &str) -> Run {
    let idempotency_key = format!("refund-{key}");
    let args = [
        "receipts",
        "refund",
        id,
        "--usd",
        usd,
        "--buyer",
        BUYER,
        "--simulate",
        "--idempotency-key",
        &idempotency_key,
    ];
    files.run(app, None, &args).await
}

fn json(run: &Run) -> Value {
    assert_eq!(run.code, 0, "{run:?}");
    serde_json::from_str(&run.stdout).unwrap_or_else(|error| panic!("{error}: {}", run.stdout))
}

#[tokio::test(flavor = "multi_thread")]
async fn login_split_order_mark_paid_refunds_terminal_sale_and_logout() {
    let app = spawn_app().await;
    let now_ms = set_real_time(&app);
    let files = Files::new(0o600);
    let wallet = Wallet::parse(TEST_ADMIN_WALLET).unwrap();
    let key = app
        .create_key(wallet, "inventory:write,orders:create,receipts:read")
        .await;
    let mug = UpsertInventoryItem::new("MUG-1", "Blue mug", Cents::new(2000), -1);
    client_with_key(&app, &key.key)
        .upsert_inventory_item(&mug)
        .await
        .unwrap();

    let login = files.login(&app).await;
    let session_mode = mode(&files.session_file);
    let tokens = files.tokens();
    let me = files.run(&app, None, &["admin", "me", "--json"]).await;
    let deploy = files.run(&app, None, &["split", "deploy"]).await;
    let again = files.run(&app, None, &["split", "deploy", "--json"]).await;
    let order_args = ["orders", "create", "--item", "MUG-1:1", "--json"];
    let order = files.run(&app, Some(&key.key), &order_args).await;
    let receipt = json(&order);
    let id = receipt["receiptId"].as_str().unwrap().to_owned();
    let paid = files
        .run(
            &app,
            None,
            &["receipts", "mark-paid", &id, "--tx-hash", &tx("ab")],
        )
        .await;
    let partial = refund(&files, &app, &id, "5.00", "01").await;
    let too_much = refund(&files, &app, &id, "1000.00", "02").await;
    let buyer_balance = app.chain().balance(Wallet::parse(BUYER).unwrap()).await;
    let made_up_hash = tx("11");
    let made_up_args = [
        "receipts",
        "refund",
        id.as_str(),
        "--usd",
        "1.00",
        "--buyer",
        BUYER,
        "--tx-hash",
        made_up_hash.as_str(),
    ];
    let made_up = files.run(&app, None, &made_up_args).await;
    let terminal_args = [
        "receipts",
        "terminal",
        "--amount",
        "12.50",
        "--label",
        "Walk-in",
        "--tax-rate",
        "0.1",
        "--json",
    ];
    let terminal = files.run(&app, None, &terminal_args).await;
    let logout = files.run(&app, None, &["admin", "logout"]).await;
    let after = files.run(&app, None, &["admin", "me"]).await;

    assert_eq!(login.code, 0, "{login:?}");
    assert!(
        login
            .stdout
            .contains(&format!("wallet        {TEST_ADMIN_WALLET}\n")),
        "{}",
        login.stdout
    );
    assert!(
        login.stdout.contains("roles         merchant\n"),
        "{}",
        login.stdout
    );
    assert!(login.stdout.contains("expires       20"), "{}", login.stdout);
    assert_eq!(session_mode, 0o600);
    let me = json(&me);
    assert_eq!(me["wallet"], TEST_ADMIN_WALLET);
    assert_eq!(me["roles"], serde_json::json!(["merchant"]));
    assert_eq!(me["expiresAt"], now_ms + 12 * 60 * 60 * 1000);
    assert_eq!(me["url"], app.base_url.as_str());
    assert_eq!(deploy.code, 0, "{deploy:?}");
    assert!(
        deploy.stdout.starts_with("split deployed\nsplit address  0x"),
        "{}",
        deploy.stdout
    );
    assert!(
        deploy.stdout.contains(&format!("{TEST_ADMIN_WALLET}  9950\n")),
        "{}",
        deploy.stdout
    );
    let again = json(&again);
    assert_eq!(again["idempotent"], true);
    assert_eq!(again["split"]["recipients"][0]["sharesBps"], 9950);
    assert_eq!(receipt["status"], "generated");
    assert_eq!(paid.code, 0, "{paid:?}");
    assert_eq!(
        paid.stdout,
        format!(
            "ID{}  STATUS  PREVIOUS\n{id}  paid    generated\n",
            " ".repeat(id.len() - 2)
        )
    );
    assert_eq!(partial.code, 0, "{partial:?}");
    assert!(
        partial.stdout.contains("refund_partial  paid"),
        "{}",
        partial.stdout
    );
    assert_eq!(too_much.code, 1, "{too_much:?}");
    assert!(
        too_much.stderr.starts_with("error: invalid_usd: "),
        "{}",
        too_much.stderr
    );
    assert_eq!(
        buyer_balance, 5_000_000,
        "the simulated refund reached the buyer, the refused one did not"
    );
    assert_eq!(made_up.code, 1, "{made_up:?}");
    assert!(
        made_up.stderr.starts_with("error: refund_tx_not_found: "),
        "{}",
        made_up.stderr
    );
    let total = receipt["totalUsd"].as_f64().unwrap();
    let remainder = format!("{:.2}", total - 5.0);
    assert!(
        too_much.stderr.contains(&remainder),
        "{remainder} in {}",
        too_much.stderr
    );
    let sale = json(&terminal);
    assert_eq!(sale["status"], "generated");
    assert_eq!(sale["lineItems"][0]["label"], "Walk-in");
    assert_eq!(sale["subtotalUsd"], 12.5);
    assert_eq!(sale["taxUsd"], 1.25);
    assert_eq!(logout.code, 0, "{logout:?}");
    assert!(
        logout
            .stdout
            .starts_with(&format!("signed out {TEST_ADMIN_WALLET}; removed ")),
        "{}",
        logout.stdout
    );
    assert!(!files.session_file.exists());
    assert_eq!(after.code, 1, "{after:?}");
    assert!(
        after
            .stderr
            .starts_with("error: not_signed_in: no admin session in "),
        "{}",
        after.stderr
    );
    assert!(after.stderr.contains(LOGIN_HINT), "{}", after.stderr);
    let runs = [
        &login, &deploy, &order, &paid, &partial, &too_much, &terminal, &logout, &after,
    ];
    for run in runs {
        for token in &tokens {
            assert!(!run.stdout.contains(token.as_str()), "a token in {run:?}");
            assert!(!run.stderr.contains(token.as_str()), "a token in {run:?}");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_key_file_other_users_can_read_is_refused_like_ssh_does() {
    let app = spawn_app().await;
    set_real_time(&app);
    let files = Files::new(0o640);

    let login = files.login(&app).await;

    assert_eq!(login.code, 1, "{login:?}");
    assert!(
        login.stderr.starts_with("error: insecure_key_file: "),
        "{}",
        login.stderr
    );
    assert!(login.stderr.contains("(mode 0640)"), "{}", login.stderr);
    assert!(
        login.stderr.contains(&format!("chmod 600 {}", files.key_file)),
        "{}",
        login.stderr
    );
    assert!(!login.stderr.contains(&key_hex()), "{}", login.stderr);
    assert!(!files.session_file.exists());
}

#[tokio::test(flavor = "multi_thread")]
async fn the_session_defaults_to_the_state_dir_and_is_only_sent_to_its_server() {
    let app = spawn_app().await;
    set_real_time(&app);
    let files = Files::new(0o600);
    let home = files.dir.path().join("home");
    let state = files.dir.path().join("xdg");
    let login_args = ["admin", "login", "--private-key-file", &files.key_file];
    // A relative XDG_STATE_HOME is invalid per the XDG spec and falls back to ~/.local/state.
    let home_env = [("HOME", home.to_str().unwrap()), ("XDG_STATE_HOME", "relative")];
    let xdg_env = [
        ("HOME", home.to_str().unwrap()),
        ("XDG_STATE_HOME", state.to_str().unwrap()),
    ];
    let other_server = ["admin", "me", "--url", "http://127.0.0.1:9"];
    let with_slash = format!("{}/", app.base_url);

    let home_login = payments_with_env(&app, None, &home_env, &login_args).await;
    let xdg_login = payments_with_env(&app, None, &xdg_env, &login_args).await;
    let other = payments_with_env(&app, None, &xdg_env, &other_server).await;
    let same = payments_with_env(&app, None, &xdg_env, &["admin", "me", "--url", &with_slash]).await;
    let xdg_file = state.join("payments/admin-session.json");
    std::fs::set_permissions(&xdg_file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let shared = payments_with_env(&app, None, &xdg_env, &["admin", "me"]).await;

    assert_eq!(home_login.code, 0, "{home_login:?}");
    assert_eq!(mode(home.join(".local/state/payments/admin-session.json")), 0o600);
    assert_eq!(mode(home.join(".local/state/payments")), 0o700);
    assert_eq!(xdg_login.code, 0, "{xdg_login:?}");
    assert!(
        xdg_login.stdout.contains(xdg_file.to_str().unwrap()),
        "{}",
        xdg_login.stdout
    );
    assert_eq!(other.code, 1, "{other:?}");
    assert!(
        other.stderr.starts_with("error: not_signed_in: "),
        "{}",
        other.stderr
    );
    assert!(
        other
            .stderr
            .contains(&format!("is for {}, not http://127.0.0.1:9", app.base_url)),
        "{}",
        other.stderr
    );
    assert!(other.stderr.contains(LOGIN_HINT), "{}", other.stderr);
    assert_eq!(same.code, 0, "{same:?}");
    assert_eq!(shared.code, 1, "{shared:?}");
    assert!(
        shared.stderr.starts_with("error: insecure_session_file: "),
        "{}",
        shared.stderr
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_expired_or_ended_session_says_to_log_in_again_and_logout_still_removes_it() {
    let app = spawn_app().await;
    set_real_time(&app);
    let files = Files::new(0o600);

    files.login(&app).await;
    let mut stored = files.stored();
    stored["expiresAt"] = 1.into();
    // Rewriting the file keeps its mode (0600).
    std::fs::write(&files.session_file, stored.to_string()).unwrap();
    let expired = files.run(&app, None, &["admin", "me"]).await;
    let expired_logout = files.run(&app, None, &["admin", "logout", "--json"]).await;
    files.login(&app).await;
    let [token, csrf] = files.tokens();
    let wallet = Wallet::parse(TEST_ADMIN_WALLET).unwrap();
    let session = AdminSession::from_tokens(wallet, vec![AdminRole::Merchant], token, csrf).unwrap();
    let client = Client::builder(&app.base_url).build().unwrap();
    client.admin_logout(&session).await.unwrap();
    let ended = files.run(&app, None, &["split", "deploy"]).await;
    let ended_logout = files.run(&app, None, &["admin", "logout"]).await;

    assert_eq!(expired.code, 1, "{expired:?}");
    assert!(
        expired.stderr.starts_with("error: session_expired: "),
        "{}",
        expired.stderr
    );
    assert!(
        expired.stderr.contains("1970-01-01T00:00:00Z"),
        "{}",
        expired.stderr
    );
    assert!(expired.stderr.contains(LOGIN_HINT), "{}", expired.stderr);
    let expired_logout = json(&expired_logout);
    assert_eq!(expired_logout["endedByThisLogout"], false);
    assert_eq!(ended.code, 1, "{ended:?}");
    assert!(
        ended.stderr.starts_with("error: unauthorized: "),
        "{}",
        ended.stderr
    );
    assert!(ended.stderr.contains(LOGIN_HINT), "{}", ended.stderr);
    assert_eq!(ended_logout.code, 0, "{ended_logout:?}");
    assert!(
        ended_logout.stdout.contains("(the session had already ended)"),
        "{}",
        ended_logout.stdout
    );
    assert!(!files.session_file.exists());
}
