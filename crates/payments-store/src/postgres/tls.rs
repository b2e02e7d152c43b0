//! TLS to PostgreSQL with rustls, with libpq's meaning of `sslmode` and its certificate parameters, so that a
//! managed database's usual URL (`?sslmode=verify-full&sslrootcert=/etc/ssl/rds.pem`) works as written.
//!
//! | `sslmode` | encrypted | certificate checked |
//! |---|---|---|
//! | `disable` | never | — |
//! | `prefer` (default) | when the server offers TLS | chain only when `sslrootcert` is given (as libpq) |
//! | `require` | always, else refused | chain only when `sslrootcert` is given (as libpq) |
//! | `verify-ca` | always | chain against `sslrootcert` (required) |
//! | `verify-full` | always | chain and host name, against `sslrootcert` or else the Mozilla roots |
//!
//! `sslcert` + `sslkey` (PEM) present a client certificate. `tokio-postgres` knows only the first three modes
//! and none of the file parameters, so [`split_tls_parameters`] takes them out of the URL first.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme};
use tokio_postgres::config::SslMode;
use tokio_postgres_rustls::MakeRustlsConnect;

use super::error::PgError;
use crate::StoreError;

mod parameters;

pub(super) use parameters::{split_parameters, split_tls_parameters};

/// libpq's `sslmode` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum TlsMode {
    Disable,
    #[default]
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

impl TlsMode {
    fn parse(value: &str) -> Result<Self, StoreError> {
        match value {
            "disable" => Ok(TlsMode::Disable),
            "prefer" => Ok(TlsMode::Prefer),
            "require" => Ok(TlsMode::Require),
            "verify-ca" => Ok(TlsMode::VerifyCa),
            "verify-full" => Ok(TlsMode::VerifyFull),
            other => Err(StoreError::Unavailable(format!(
                "invalid sslmode `{other}` in the PostgreSQL URL: use disable, prefer, require, verify-ca or \
                 verify-full"
            ))),
        }
    }

    /// What `tokio-postgres` must do at connect: try TLS, insist on it, or never ask.
    pub(super) fn negotiation(self) -> SslMode {
        match self {
            TlsMode::Disable => SslMode::Disable,
            TlsMode::Prefer => SslMode::Prefer,
            TlsMode::Require | TlsMode::VerifyCa | TlsMode::VerifyFull => SslMode::Require,
        }
    }
}

/// The TLS parameters of a connection URL.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct TlsParameters {
    pub(super) mode: TlsMode,
    pub(super) root_cert: Option<PathBuf>,
    pub(super) client_cert: Option<PathBuf>,
    pub(super) client_key: Option<PathBuf>,
}

impl TlsParameters {
    /// The connector for these parameters; certificate files are read now, so a wrong path fails at start.
    pub(super) fn connector(&self) -> Result<MakeRustlsConnect, StoreError> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let verifier = self.verifier(&provider)?;
        let builder = ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|error| tls_setup(format!("TLS versions: {error}")))?
            .dangerous()
            .with_custom_certificate_verifier(verifier);
        let config = match (&self.client_cert, &self.client_key) {
            (None, None) => builder.with_no_client_auth(),
            (Some(cert), Some(key)) => {
                let chain = read_certificates(cert, "sslcert")?;
                let key = PrivateKeyDer::from_pem_file(key)
                    .map_err(|error| tls_setup(format!("cannot read sslkey {}: {error}", key.display())))?;
                builder.with_client_auth_cert(chain, key).map_err(|error| {
                    tls_setup(format!(
                        "sslcert and sslkey do not make a client identity: {error}"
                    ))
                })?
            }
            _ => {
                return Err(tls_setup(
                    "sslcert and sslkey go together: give both or neither".to_owned(),
                ));
            }
        };
        Ok(MakeRustlsConnect::new(config))
    }

    fn verifier(&self, provider: &Arc<CryptoProvider>) -> Result<Arc<dyn ServerCertVerifier>, StoreError> {
        let algorithms = provider.signature_verification_algorithms;
        let roots = match (&self.root_cert, self.mode) {
            (Some(path), _) => {
                let mut roots = RootCertStore::empty();
                for certificate in read_certificates(path, "sslrootcert")? {
                    roots
                        .add(certificate)
                        .map_err(|error| tls_setup(format!("sslrootcert {}: {error}", path.display())))?;
                }
                roots
            }
            (None, TlsMode::VerifyCa) => {
                return Err(tls_setup(
                    "sslmode=verify-ca needs sslrootcert=<file of the CA that signed the server's certificate>"
                        .to_owned(),
                ));
            }
            (None, TlsMode::VerifyFull) => RootCertStore {
                roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
            },
            (None, _) => {
                return Ok(Arc::new(BelowVerifyFull {
                    chain: None,
                    algorithms,
                }));
            }
        };
        let chain_and_name = WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider.clone())
            .build()
            .map_err(|error| tls_setup(format!("certificate verifier: {error}")))?;
        if self.mode == TlsMode::VerifyFull {
            Ok(chain_and_name)
        } else {
            Ok(Arc::new(BelowVerifyFull {
                chain: Some(chain_and_name),
                algorithms,
            }))
        }
    }

    /// A failure to connect as the services see it, with its causes (the driver's own message is only
    /// "error performing TLS handshake" or "db error"), said in the operator's terms when TLS caused it.
    pub(super) fn connect_failure(&self, failure: PgError) -> StoreError {
        let text = match &failure {
            PgError::Db(error) => with_causes(error),
            PgError::Pool(error) => with_causes(error),
            PgError::Corrupt(_) | PgError::Contended(_) | PgError::Lost(_) => return failure.into_store(),
        };
        StoreError::Unavailable(self.explain(&text).unwrap_or(text))
    }

    fn explain(&self, failure: &str) -> Option<String> {
        if failure.contains("server does not support TLS") {
            return Some(format!(
                "sslmode={} but the PostgreSQL server does not offer TLS (enable `ssl = on` there, or use \
                 sslmode=prefer or disable on a trusted network)",
                self.mode_name()
            ));
        }
        let (_, detail) = failure.split_once("invalid peer certificate: ")?;
        if detail.contains("not valid for name") || detail.contains("NotValidForName") {
            return Some(format!(
                "the PostgreSQL server's certificate does not name the host in the URL (sslmode=verify-full): \
                 {detail}; connect by a name the certificate lists, or use sslmode=verify-ca"
            ));
        }
        Some(format!(
            "the PostgreSQL server's certificate is not trusted (sslmode={}): {detail}",
            self.mode_name()
        ))
    }

    fn mode_name(&self) -> &'static str {
        match self.mode {
            TlsMode::Disable => "disable",
            TlsMode::Prefer => "prefer",
            TlsMode::Require => "require",
            TlsMode::VerifyCa => "verify-ca",
            TlsMode::VerifyFull => "verify-full",
        }
    }
}

/// `error: cause: cause's cause`, each message once.
fn with_causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(next) = cause {
        let message = next.to_string();
        if !text.contains(&message) {
            text.push_str(": ");
            text.push_str(&message);
        }
        cause = next.source();
    }
    text
}

fn tls_setup(message: String) -> StoreError {
    StoreError::Unavailable(format!("PostgreSQL TLS: {message}"))
}

fn read_certificates(path: &Path, parameter: &str) -> Result<Vec<CertificateDer<'static>>, StoreError> {
    let certificates = CertificateDer::pem_file_iter(path)
        .and_then(|iter| iter.collect::<Result<Vec<_>, _>>())
        .map_err(|error| tls_setup(format!("cannot read {parameter} {}: {error}", path.display())))?;
    if certificates.is_empty() {
        return Err(tls_setup(format!(
            "{parameter} {} holds no PEM certificate",
            path.display()
        )));
    }
    Ok(certificates)
}

/// The checks libpq's modes below `verify-full` make. Without `chain` (`require`/`prefer` without a root
/// certificate): encrypted, the server not authenticated. With it (`verify-ca`): the chain must lead to
/// `sslrootcert`, whatever host name the certificate carries. Either way the handshake's own signatures are
/// checked, so the session key belongs to whoever holds the presented certificate.
#[derive(Debug)]
struct BelowVerifyFull {
    chain: Option<Arc<WebPkiServerVerifier>>,
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for BelowVerifyFull {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let Some(chain) = &self.chain else {
            return Ok(ServerCertVerified::assertion());
        };
        match chain.verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now) {
            // webpki checks the name only after the chain, so this error means the chain was good.
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}
