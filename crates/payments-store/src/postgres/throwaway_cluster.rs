//! A PostgreSQL cluster of a test's own: `initdb` into a temporary directory, its own port on 127.0.0.1,
//! TLS with a certificate authority made for it by `openssl`, stopped and deleted on drop. Nothing of the
//! machine's own cluster is touched, so a test may also stop and start it (an outage). Without PostgreSQL's
//! server binaries or `openssl` the test skips with a message, except under `CI=true` where that is a
//! failure. Test support (feature `testing`): a failure to set it up panics, failing the test.

use std::fs;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where Debian puts a PostgreSQL major's server binaries (initdb, pg_ctl are not on PATH there).
const SERVER_BINARIES: [&str; 3] = [
    "/usr/lib/postgresql/17/bin",
    "/usr/lib/postgresql/16/bin",
    "/usr/lib/postgresql/15/bin",
];
/// The role that logs in with a client certificate (its certificate's CN).
pub(super) const CERTIFICATE_ROLE: &str = "certuser";

#[derive(Debug)]
pub struct ThrowawayCluster {
    directory: tempfile::TempDir,
    binaries: PathBuf,
    port: u16,
}

impl ThrowawayCluster {
    /// Starts a cluster with `ssl = on` (or off), trust auth over TCP for every role but
    /// [`CERTIFICATE_ROLE`], which must present a client certificate. `None` after `skipping: ...` when the
    /// tools are missing outside CI.
    pub fn start(ssl: bool) -> Option<Self> {
        let Some(binaries) = SERVER_BINARIES
            .iter()
            .map(PathBuf::from)
            .find(|dir| dir.join("initdb").exists())
        else {
            return skip("PostgreSQL server binaries (initdb) not found");
        };
        if Command::new("openssl").arg("version").output().is_err() {
            return skip("openssl not found");
        }
        let directory = tempfile::Builder::new()
            .prefix("payments-pg-")
            .tempdir()
            .unwrap_or_else(|error| panic!("temporary directory: {error}"));
        let cluster = ThrowawayCluster {
            directory,
            binaries,
            port: free_port(),
        };
        cluster.make_certificates();
        cluster.give_to_postgres();
        let data = cluster.data();
        cluster.run_server_tool(
            "initdb",
            &["-D", &data, "-A", "trust", "-U", "postgres", "--no-sync"],
        );
        let dir = cluster.path().display().to_string();
        let settings = format!(
            "port = {port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{dir}'\nfsync = off\n\
             ssl = {ssl}\nssl_cert_file = '{dir}/server.pem'\nssl_key_file = '{dir}/server.key'\n\
             ssl_ca_file = '{dir}/ca.pem'\n",
            port = cluster.port,
            ssl = if ssl { "on" } else { "off" },
        );
        append(&Path::new(&data).join("postgresql.conf"), &settings);
        let access = format!(
            "local all all trust\nhostssl all {CERTIFICATE_ROLE} 127.0.0.1/32 cert\n\
             hostnossl all {CERTIFICATE_ROLE} 127.0.0.1/32 reject\nhost all all 127.0.0.1/32 trust\n"
        );
        fs::write(Path::new(&data).join("pg_hba.conf"), access)
            .unwrap_or_else(|error| panic!("pg_hba.conf: {error}"));
        cluster.start_again();
        Some(cluster)
    }

    /// Stops the server at once, as a crash or a pulled plug would (`pg_ctl stop -m immediate`): open
    /// connections break, new ones are refused.
    pub fn stop(&self) {
        let data = self.data();
        self.run_server_tool("pg_ctl", &["-D", &data, "-m", "immediate", "-w", "stop"]);
    }

    /// Starts the (stopped) server on its data directory and port; returns once it accepts connections.
    pub fn start_again(&self) {
        let data = self.data();
        let log = format!("{}/log", self.path().display());
        self.run_server_tool("pg_ctl", &["-D", &data, "-l", &log, "-w", "-t", "30", "start"]);
    }

    /// A connection URL for `role` on `host` (a name or an address of 127.0.0.1) with extra query `parameters`.
    pub fn url(&self, role: &str, host: &str, parameters: &str) -> String {
        format!("postgres://{role}@{host}:{}/postgres?{parameters}", self.port)
    }

    /// The port it listens on (127.0.0.1).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A file of this cluster's certificate authority: `ca.pem`, `client.pem`, `client.key`, `other-ca.pem`.
    pub fn file(&self, name: &str) -> String {
        self.path().join(name).display().to_string()
    }

    fn path(&self) -> &Path {
        self.directory.path()
    }

    fn data(&self) -> String {
        self.path().join("data").display().to_string()
    }

    /// A CA, a server certificate naming only `localhost`, a client certificate for [`CERTIFICATE_ROLE`],
    /// and a second, unrelated CA.
    fn make_certificates(&self) {
        let dir = self.path();
        let new_key = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes";
        for ca in ["ca", "other-ca"] {
            openssl(
                dir,
                &format!("req -x509 -days 2 -subj /CN=test-ca {new_key} -keyout {ca}.key -out {ca}.pem"),
            );
        }
        for (name, usage) in [
            (
                "server",
                "subjectAltName=DNS:localhost\nextendedKeyUsage=serverAuth",
            ),
            ("client", "extendedKeyUsage=clientAuth"),
        ] {
            let subject = if name == "server" {
                "localhost"
            } else {
                CERTIFICATE_ROLE
            };
            let extensions = format!("basicConstraints=CA:FALSE\n{usage}\n");
            fs::write(dir.join(format!("{name}.ext")), extensions)
                .unwrap_or_else(|error| panic!("extensions file: {error}"));
            openssl(
                dir,
                &format!("req -subj /CN={subject} {new_key} -keyout {name}.key -out {name}.csr"),
            );
            openssl(
                dir,
                &format!(
                    "x509 -req -days 2 -in {name}.csr -CA ca.pem -CAkey ca.key -CAcreateserial \
                     -extfile {name}.ext -out {name}.pem"
                ),
            );
        }
        set_private(&dir.join("server.key"));
    }

    fn run_server_tool(&self, tool: &str, args: &[&str]) {
        let output = self
            .server_tool(tool)
            .args(args)
            .output()
            .unwrap_or_else(|error| panic!("starting the PostgreSQL tool {tool}: {error}"));
        assert!(
            output.status.success(),
            "{tool} {args:?} failed: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }

    /// `tool` of the server binaries, run as `postgres` when we are root (initdb and postgres refuse root).
    fn server_tool(&self, tool: &str) -> Command {
        let program = self.binaries.join(tool);
        if is_root() {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(program);
            command
        } else {
            Command::new(program)
        }
    }

    /// initdb and postgres refuse to run as root: when we are root, the directory goes to `postgres`.
    fn give_to_postgres(&self) {
        if is_root() {
            let status = Command::new("chown")
                .arg("-R")
                .arg("postgres:postgres")
                .arg(self.path())
                .status();
            assert!(status.is_ok_and(|status| status.success()), "chown to postgres");
        }
    }
}

impl Drop for ThrowawayCluster {
    fn drop(&mut self) {
        let data = self.data();
        let program = self.binaries.join("pg_ctl");
        let stop = ["-D", &data, "-m", "immediate", "-w", "stop"];
        let _ = if is_root() {
            Command::new("runuser")
                .args(["-u", "postgres", "--"])
                .arg(&program)
                .args(stop)
                .output()
        } else {
            Command::new(&program).args(stop).output()
        };
    }
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| out.stdout.starts_with(b"0\n"))
}

fn skip(why: &str) -> Option<ThrowawayCluster> {
    assert!(
        std::env::var("CI").map_or(true, |ci| ci != "true"),
        "{why}; CI must provide it"
    );
    eprintln!("skipping: {why}");
    None
}

fn openssl(dir: &Path, args: &str) {
    let output = Command::new("openssl")
        .args(args.split_whitespace())
        .current_dir(dir)
        .output()
        .unwrap_or_else(|error| panic!("running openssl: {error}"));
    assert!(
        output.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn append(path: &Path, text: &str) {
    let mut content =
        fs::read_to_string(path).unwrap_or_else(|error| panic!("reading postgresql.conf: {error}"));
    content.push_str(text);
    fs::write(path, content).unwrap_or_else(|error| panic!("writing postgresql.conf: {error}"));
}

/// PostgreSQL refuses a key file others can read.
fn set_private(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(0o600))
        .unwrap_or_else(|error| panic!("chmod server.key: {error}"));
}

/// A port nothing listens on now (bound, read, released), for a server a test starts.
pub(super) fn free_port() -> u16 {
    let listener =
        TcpListener::bind("127.0.0.1:0").unwrap_or_else(|error| panic!("binding a free port: {error}"));
    listener
        .local_addr()
        .unwrap_or_else(|error| panic!("reading its address: {error}"))
        .port()
}
