//! A PgBouncer of a test's own in transaction pooling mode, in front of the server a test database lives on
//! (the machine's cluster at `PAYMENTS_TEST_POSTGRES_URL`, or a throwaway one): its own port on 127.0.0.1,
//! its own configuration and user list in a temporary directory, trust authentication, stopped on drop.
//! Without the `pgbouncer` binary (Debian's package) the test skips with a message, except under `CI=true`
//! where that is a failure. Test support (feature `testing`): a failure to start it panics.

use std::fs;
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::throwaway_cluster::free_port;

/// Where Debian installs it (`/usr/sbin` is not on every PATH).
const BINARIES: [&str; 3] = [
    "/usr/sbin/pgbouncer",
    "/usr/bin/pgbouncer",
    "/usr/local/bin/pgbouncer",
];
/// How long it may take to accept connections.
const START_TIMEOUT: Duration = Duration::from_secs(10);

/// A running PgBouncer (`pool_mode = transaction`).
#[derive(Debug)]
pub struct PgBouncer {
    process: Child,
    port: u16,
    directory: tempfile::TempDir,
}

impl PgBouncer {
    /// Starts one in front of the server of `upstream_url` (any database on it; its host, port and user
    /// are used), with `server_pool_size` server connections per database and user. `None` after
    /// `skipping: ...` when `pgbouncer` is not installed, outside CI.
    ///
    /// # Panics
    /// When it is installed but does not start, or under `CI=true` when it is missing.
    pub fn start(upstream_url: &str, server_pool_size: u32) -> Option<Self> {
        let Some(binary) = BINARIES.iter().map(PathBuf::from).find(|path| path.exists()) else {
            assert!(
                std::env::var("CI").map_or(true, |ci| ci != "true"),
                "pgbouncer not found ({BINARIES:?}); CI must install it (apt-get install pgbouncer)"
            );
            eprintln!("skipping: pgbouncer not found (apt-get install pgbouncer)");
            return None;
        };
        let upstream = url::Url::parse(upstream_url)
            .unwrap_or_else(|error| panic!("upstream URL for pgbouncer: {error}"));
        let host = upstream.host_str().unwrap_or("127.0.0.1");
        let upstream_port = upstream.port().unwrap_or(5432);
        let user = match upstream.username() {
            "" => "postgres",
            user => user,
        };
        let directory = tempfile::Builder::new()
            .prefix("payments-pgbouncer-")
            .tempdir()
            .unwrap_or_else(|error| panic!("temporary directory: {error}"));
        let port = free_port();
        let dir = directory.path().display();
        // `*`: every database of the server, so each test's fresh database is reachable under its name.
        let settings = format!(
            "[databases]\n* = host={host} port={upstream_port}\n\n[pgbouncer]\nlisten_addr = 127.0.0.1\n\
             listen_port = {port}\nunix_socket_dir =\nauth_type = trust\nauth_file = {dir}/userlist.txt\n\
             pool_mode = transaction\ndefault_pool_size = {server_pool_size}\nmax_client_conn = 500\n\
             logfile = {dir}/pgbouncer.log\n"
        );
        write(&directory.path().join("pgbouncer.ini"), &settings);
        write(
            &directory.path().join("userlist.txt"),
            &format!("\"{user}\" \"\"\n"),
        );
        let root = is_root();
        if root {
            let owned = Command::new("chown")
                .arg("-R")
                .arg("postgres:postgres")
                .arg(directory.path())
                .status();
            assert!(owned.is_ok_and(|status| status.success()), "chown to postgres");
        }
        let process = command_for(&binary, root)
            .arg(directory.path().join("pgbouncer.ini"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|error| panic!("starting pgbouncer: {error}"));
        let bouncer = PgBouncer {
            process,
            port,
            directory,
        };
        bouncer.wait_until_listening();
        Some(bouncer)
    }

    /// `database_url` (a URL on the upstream server) through this PgBouncer, with `pooler=transaction`.
    ///
    /// # Panics
    /// When `database_url` is not a URL.
    pub fn url_for(&self, database_url: &str) -> String {
        let mut url = url::Url::parse(database_url)
            .unwrap_or_else(|error| panic!("database URL for pgbouncer: {error}"));
        let _ = url.set_host(Some("127.0.0.1"));
        let _ = url.set_port(Some(self.port));
        url.query_pairs_mut()
            .append_pair("pooler", "transaction")
            .append_pair("sslmode", "disable");
        url.to_string()
    }

    /// The port it listens on (127.0.0.1).
    pub fn port(&self) -> u16 {
        self.port
    }

    fn wait_until_listening(&self) {
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(
                started.elapsed() < START_TIMEOUT,
                "pgbouncer did not listen within {START_TIMEOUT:?}: {}",
                fs::read_to_string(self.directory.path().join("pgbouncer.log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for PgBouncer {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| out.stdout.starts_with(b"0\n"))
}

/// PgBouncer refuses to run as root; as root it runs as `postgres` (owning the temporary directory, so
/// it reads its files and writes its log there). `setpriv` execs it, so the child we kill is PgBouncer.
fn command_for(binary: &PathBuf, root: bool) -> Command {
    if !root {
        return Command::new(binary);
    }
    let mut command = Command::new("setpriv");
    command
        .args(["--reuid=postgres", "--regid=postgres", "--init-groups", "--"])
        .arg(binary);
    command
}

fn write(path: &std::path::Path, text: &str) {
    fs::write(path, text).unwrap_or_else(|error| panic!("writing {}: {error}", path.display()));
}
