//! `--config FILE`: the precedence flag > environment > file > default, unknown keys, secrets never echoed,
//! `config check` and `backup`, all through the binary.

use std::io::{BufRead as _, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};

use reqwest::Method;

use crate::helpers::{Api, send};

/// A 32-byte master key in base64 (a test value).
const MASTER_KEY: &str = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
/// A production JWT secret (a test value).
const JWT_SECRET: &str = "0123456789abcdef0123456789abcdef-test";

/// `payments-server ARGS` with exactly `env` among the PAYMENTS_* variables, run in `dir`.
fn server(dir: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_payments-server"));
    for (name, _) in std::env::vars().filter(|(name, _)| name.starts_with("PAYMENTS_")) {
        command.env_remove(name);
    }
    command
        .current_dir(dir)
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// The `key = value  # source` line `config check` prints for `key`.
fn setting(output: &Output, key: &str) -> String {
    stdout(output)
        .lines()
        .find(|line| line.starts_with(&format!("{key} = ")))
        .unwrap_or_else(|| panic!("no {key} in {}", stdout(output)))
        .to_owned()
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    std::fs::write(dir.join(name), text).unwrap();
    name.to_owned()
}

#[test]
fn a_file_value_beats_the_default_the_environment_beats_the_file_and_a_flag_beats_both() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "payments.toml",
        "key-cache-ms = 250\nrate-limit-per-minute = 7\nmax-body-bytes = 1000\n",
    );
    let env = [
        ("PAYMENTS_RATE_LIMIT_PER_MINUTE", "8"),
        ("PAYMENTS_MAX_BODY_BYTES", "2000"),
    ];

    let checked = server(
        dir.path(),
        &env,
        &["config", "check", "--config", &file, "--max-body-bytes", "3000"],
    );

    assert_eq!(checked.status.code(), Some(0), "{}", stderr(&checked));
    assert_eq!(
        setting(&checked, "key-cache-ms"),
        r#"key-cache-ms = "250"  # file"#
    );
    assert_eq!(
        setting(&checked, "rate-limit-per-minute"),
        r#"rate-limit-per-minute = "8"  # env PAYMENTS_RATE_LIMIT_PER_MINUTE"#
    );
    assert_eq!(
        setting(&checked, "max-body-bytes"),
        r#"max-body-bytes = "3000"  # flag"#
    );
    assert_eq!(
        setting(&checked, "header-timeout-secs"),
        r#"header-timeout-secs = "30"  # default"#
    );
}

#[test]
fn payments_config_names_the_file_and_arrays_set_multi_valued_flags() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "env.toml",
        "platform-admins = [\"0x1111111111111111111111111111111111111111\", \
         \"0x2222222222222222222222222222222222222222\"]\nwebhook-retry-delays-ms = [1000, 2000]\n",
    );

    let checked = server(dir.path(), &[("PAYMENTS_CONFIG", &file)], &["config", "check"]);

    assert_eq!(checked.status.code(), Some(0), "{}", stderr(&checked));
    assert!(stdout(&checked).contains("# config file: env.toml"));
    assert_eq!(
        setting(&checked, "platform-admins"),
        r#"platform-admins = ["0x1111111111111111111111111111111111111111", "0x2222222222222222222222222222222222222222"]  # file"#
    );
    assert_eq!(
        setting(&checked, "webhook-retry-delays-ms"),
        r#"webhook-retry-delays-ms = ["1000", "2000"]  # file"#
    );
}

#[test]
fn an_unknown_key_is_refused_naming_it_and_the_known_keys() {
    let dir = tempfile::tempdir().unwrap();
    let typo = write(dir.path(), "typo.toml", "lisen = \"127.0.0.1:1\"\n");
    let snake = write(dir.path(), "snake.toml", "key_cache_ms = 5\n");

    let typo_run = server(dir.path(), &[], &["config", "check", "--config", &typo]);
    let snake_run = server(dir.path(), &[], &["--config", &snake]);

    assert_eq!(typo_run.status.code(), Some(1));
    let message = stderr(&typo_run);
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(
        message.starts_with("error: config file typo.toml: unknown key `lisen`"),
        "{message}"
    );
    assert!(message.contains("listen, db, base-url"), "{message}");
    assert_eq!(snake_run.status.code(), Some(1));
    assert!(
        stderr(&snake_run).contains("keys are spelled like the flags: `key-cache-ms`"),
        "{}",
        stderr(&snake_run)
    );
}

#[test]
fn a_bad_value_in_the_file_names_the_key_and_a_secret_value_is_never_echoed() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write(dir.path(), "bad.toml", "listen = \"nowhere\"\n");
    let secret = write(
        dir.path(),
        "secret.toml",
        "chain-rpc-url = \"not a url hunter2-api-key\"\n",
    );
    let secrets = write(
        dir.path(),
        "secrets.toml",
        &format!(
            "jwt-secret = \"{JWT_SECRET}\"\nmaster-key = \"{MASTER_KEY}\"\nedge-secret = \"edge-hunter2\"\n\
             metrics-token = \"metrics-hunter2\"\ndb = \"postgres://app:pg-hunter2@127.0.0.1:1/payments\"\n"
        ),
    );

    let bad_run = server(dir.path(), &[], &["config", "check", "--config", &bad]);
    let secret_run = server(dir.path(), &[], &["config", "check", "--config", &secret]);
    let secrets_run = server(dir.path(), &[], &["config", "check", "--config", &secrets]);

    assert_eq!(bad_run.status.code(), Some(1));
    assert!(
        stderr(&bad_run).starts_with("error: config file bad.toml: `listen`: invalid value 'nowhere'"),
        "{}",
        stderr(&bad_run)
    );
    assert_eq!(secret_run.status.code(), Some(1));
    assert!(
        stderr(&secret_run).contains("`chain-rpc-url`: invalid value (not shown"),
        "{}",
        stderr(&secret_run)
    );
    assert!(!stderr(&secret_run).contains("hunter2"));
    // The PostgreSQL server at port 1 does not answer: the check fails, and still shows no secret.
    assert_eq!(secrets_run.status.code(), Some(1));
    let everything = format!("{}{}", stdout(&secrets_run), stderr(&secrets_run));
    assert!(!everything.contains("hunter2"), "{everything}");
    assert!(!everything.contains(MASTER_KEY), "{everything}");
    assert!(!everything.contains(JWT_SECRET), "{everything}");
    assert_eq!(
        setting(&secrets_run, "jwt-secret"),
        r#"jwt-secret = "[redacted]"  # file"#
    );
    assert_eq!(
        setting(&secrets_run, "db"),
        r#"db = "postgres://127.0.0.1:1/[redacted]"  # file"#
    );
    assert!(
        stderr(&secrets_run).contains("error: database postgres://app:***@127.0.0.1:1/payments"),
        "{}",
        stderr(&secrets_run)
    );
}

#[test]
fn config_check_reports_every_problem_on_its_own_line_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("relayer.key");
    std::fs::write(&key, format!("0x{}\n", "11".repeat(32))).unwrap();
    #[cfg(unix)]
    std::fs::set_permissions(&key, std::os::unix::fs::PermissionsExt::from_mode(0o644)).unwrap();
    let key = key.to_str().unwrap();

    let missing_secrets = server(dir.path(), &[], &["config", "check", "--dev=false"]);
    let production = server(
        dir.path(),
        &[
            ("PAYMENTS_JWT_SECRET", JWT_SECRET),
            ("PAYMENTS_MASTER_KEY", MASTER_KEY),
        ],
        &[
            "config",
            "check",
            "--relayer-key-file",
            key,
            "--db",
            "no/such/dir/payments.db",
        ],
    );
    let development = server(dir.path(), &[], &["config", "check", "--relayer-key-file", key]);

    assert_eq!(missing_secrets.status.code(), Some(1));
    assert!(
        stderr(&missing_secrets)
            .contains("error: --jwt-secret (PAYMENTS_JWT_SECRET) is required outside development mode"),
        "{}",
        stderr(&missing_secrets)
    );
    assert_eq!(production.status.code(), Some(1));
    let errors = stderr(&production)
        .lines()
        .filter(|line| line.starts_with("error: "))
        .count();
    #[cfg(unix)]
    assert_eq!(errors, 2, "{}", stderr(&production));
    assert!(
        stderr(&production).contains("no directory no/such/dir"),
        "{}",
        stderr(&production)
    );
    #[cfg(unix)]
    assert!(stderr(&production).contains("mode 644 lets other users read the key; run `chmod 600"));
    assert_eq!(development.status.code(), Some(0), "{}", stderr(&development));
    #[cfg(unix)]
    assert!(
        stderr(&development).contains("warning: --relayer-key-file"),
        "{}",
        stderr(&development)
    );
    assert!(stdout(&development).contains("# development mode: on"));
    assert!(stdout(&development).contains("# database: payments.db does not exist yet"));
    assert!(
        !dir.path().join("payments.db").exists(),
        "config check creates nothing"
    );
}

#[test]
fn serve_runs_with_the_address_and_database_of_the_config_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "serve.toml",
        "listen = \"127.0.0.1:0\"\ndb = \"from-file.db\"\ndev = true\n",
    );
    let mut command = Command::new(env!("CARGO_BIN_EXE_payments-server"));
    for (name, _) in std::env::vars().filter(|(name, _)| name.starts_with("PAYMENTS_")) {
        command.env_remove(name);
    }
    let mut child = command
        .current_dir(dir.path())
        .args(["--config", &file])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();

    let mut listening = false;
    for line in BufReader::new(child.stderr.take().unwrap()).lines() {
        if line.unwrap().contains("payments-server listening") {
            listening = true;
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();

    assert!(listening);
    assert!(dir.path().join("from-file.db").exists());
    assert!(dir.path().join("from-file.db.dev-admin.key").exists());
    assert!(!dir.path().join("payments.db").exists());
}

#[tokio::test]
async fn a_backup_of_a_live_database_holds_its_data_and_refuses_to_overwrite() {
    let api = Api::spawn().await;
    let dir = tempfile::tempdir().unwrap();
    let db = api.app.db_path.to_str().unwrap().to_owned();
    assert_eq!(send(api.dev(Method::GET, "/api/inventory")).await.status, 200);

    let backup = server(dir.path(), &[], &["backup", "--db", &db, "--to", "copy.db"]);
    let again = server(dir.path(), &[], &["backup", "--db", &db, "--to", "copy.db"]);
    let listed = server(dir.path(), &[], &["keys", "--db", "copy.db", "list"]);

    assert_eq!(backup.status.code(), Some(0), "{}", stderr(&backup));
    assert!(stdout(&backup).starts_with(&format!("backed up {db} to copy.db (")));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(dir.path().join("copy.db"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    assert_eq!(again.status.code(), Some(1));
    assert!(stderr(&again).contains("exists already"), "{}", stderr(&again));
    let listed: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(listed[0]["subscriptionId"], api.app.subscription_id.as_str());
}

#[tokio::test]
async fn config_check_reads_a_postgresql_database_without_changing_it_and_keys_initialise_it() {
    let Some(database) = payments_server::testing::PgTestDatabase::create().await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let url = database.url().to_owned();
    let check = |dir: &Path| {
        server(
            dir,
            &[
                ("PAYMENTS_DB", &url),
                ("PAYMENTS_JWT_SECRET", JWT_SECRET),
                ("PAYMENTS_MASTER_KEY", MASTER_KEY),
            ],
            &["config", "check"],
        )
    };

    let empty = check(dir.path());
    let created = server(dir.path(), &[("PAYMENTS_DB", &url)], &["keys", "list"]);
    let initialised = check(dir.path());

    assert_eq!(empty.status.code(), Some(0), "{}", stderr(&empty));
    assert!(
        stdout(&empty).contains("opens and is empty; the first start creates the schema"),
        "{}",
        stdout(&empty)
    );
    assert_eq!(created.status.code(), Some(0), "{}", stderr(&created));
    assert!(
        stdout(&initialised).contains("opens, schema version "),
        "{}",
        stdout(&initialised)
    );
    database.drop_database().await;
}

#[test]
fn a_port_flag_is_refused_with_a_tip_naming_listen() {
    let dir = tempfile::tempdir().unwrap();

    let output = server(dir.path(), &[], &["--port", "9000"]);

    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("unexpected argument '--port'"),
        "{}",
        stderr(&output)
    );
    assert!(
        stderr(&output).contains("tip: the address and the port are one flag: --listen"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn help_explains_the_commands_without_notes_meant_for_developers() {
    let dir = tempfile::tempdir().unwrap();

    for args in [&["--help"][..], &["config", "--help"][..]] {
        let output = server(dir.path(), &[], args);

        assert!(output.status.success(), "{args:?}");
        assert!(stdout(&output).contains("Usage:"), "{args:?}");
        assert!(
            !stdout(&output).contains("clippy"),
            "{args:?}: {}",
            stdout(&output)
        );
    }
}
