//! The store over TLS against clusters these tests start themselves (see [`super::throwaway_cluster`]):
//! each `sslmode` connects or refuses as libpq would, the session is really encrypted, and every refusal says
//! why in the operator's terms.

use tokio_postgres::NoTls;

use super::PgStore;
use super::connection::Queries;
use super::throwaway_cluster::{CERTIFICATE_ROLE, ThrowawayCluster};
use crate::{HealthRepository, StoreError};

/// Whether the store's own pooled session is encrypted, read from the server's side.
async fn session_is_encrypted(store: &PgStore) -> bool {
    let client = store.client().await.unwrap();
    let encrypted = client
        .prepare_cached("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
        .await
        .unwrap();
    client.query_one(&encrypted, &[]).await.unwrap().get(0)
}

async fn open(url: &str) -> Result<PgStore, StoreError> {
    PgStore::open(url, 1_700_000_000_000).await
}

fn refusal(result: Result<PgStore, StoreError>) -> String {
    match result {
        Ok(_) => panic!("the store opened where it should have been refused"),
        Err(error) => error.to_string(),
    }
}

#[tokio::test]
async fn each_sslmode_connects_to_a_tls_cluster_as_libpq_would_and_the_session_is_encrypted() {
    let Some(cluster) = ThrowawayCluster::start(true) else {
        return;
    };
    let ca = cluster.file("ca.pem");

    // verify-full by the name the certificate carries: migrations run, a use case answers, all over TLS.
    let store = open(&cluster.url(
        "postgres",
        "localhost",
        &format!("sslmode=verify-full&sslrootcert={ca}"),
    ))
    .await
    .unwrap();
    store.check_health().await.unwrap();
    assert!(session_is_encrypted(&store).await, "verify-full");

    // verify-ca checks the chain only, so the address works although the certificate names `localhost`.
    let store = open(&cluster.url(
        "postgres",
        "127.0.0.1",
        &format!("sslmode=verify-ca&sslrootcert={ca}"),
    ))
    .await
    .unwrap();
    assert!(session_is_encrypted(&store).await, "verify-ca");

    // require without a root certificate: encrypted, not authenticated (libpq's meaning).
    let store = open(&cluster.url("postgres", "127.0.0.1", "sslmode=require"))
        .await
        .unwrap();
    assert!(session_is_encrypted(&store).await, "require");

    // A role that the cluster lets in only with a client certificate signed by its CA.
    let (admin, connection) =
        tokio_postgres::connect(&cluster.url("postgres", "127.0.0.1", "sslmode=disable"), NoTls)
            .await
            .unwrap();
    tokio::spawn(connection);
    admin
        .batch_execute(&format!("CREATE ROLE {CERTIFICATE_ROLE} LOGIN SUPERUSER"))
        .await
        .unwrap();
    let with_certificate = format!(
        "sslmode=verify-full&sslrootcert={ca}&sslcert={}&sslkey={}",
        cluster.file("client.pem"),
        cluster.file("client.key")
    );
    let store = open(&cluster.url(CERTIFICATE_ROLE, "localhost", &with_certificate))
        .await
        .unwrap();
    assert!(session_is_encrypted(&store).await, "client certificate");

    let without = refusal(
        open(&cluster.url(
            CERTIFICATE_ROLE,
            "localhost",
            &format!("sslmode=verify-full&sslrootcert={ca}"),
        ))
        .await,
    );
    assert!(without.contains("certificate"), "{without}");
}

#[tokio::test]
async fn a_tls_cluster_is_refused_with_a_clear_reason_when_its_certificate_is_not_the_one_expected() {
    let Some(cluster) = ThrowawayCluster::start(true) else {
        return;
    };
    let ca = cluster.file("ca.pem");

    let wrong_name = refusal(
        open(&cluster.url(
            "postgres",
            "127.0.0.1",
            &format!("sslmode=verify-full&sslrootcert={ca}"),
        ))
        .await,
    );
    assert!(
        wrong_name.contains("does not name the host in the URL"),
        "{wrong_name}"
    );
    assert!(wrong_name.contains("127.0.0.1"), "{wrong_name}");

    let other_ca = cluster.file("other-ca.pem");
    let untrusted = refusal(
        open(&cluster.url(
            "postgres",
            "localhost",
            &format!("sslmode=verify-ca&sslrootcert={other_ca}"),
        ))
        .await,
    );
    assert!(
        untrusted.contains("certificate is not trusted (sslmode=verify-ca)"),
        "{untrusted}"
    );

    let no_root = refusal(open(&cluster.url("postgres", "localhost", "sslmode=verify-ca")).await);
    assert!(
        no_root.contains("sslmode=verify-ca needs sslrootcert"),
        "{no_root}"
    );

    let half_identity = refusal(
        open(&cluster.url(
            "postgres",
            "localhost",
            &format!("sslmode=require&sslcert={}", cluster.file("client.pem")),
        ))
        .await,
    );
    assert!(
        half_identity.contains("sslcert and sslkey go together"),
        "{half_identity}"
    );
}

#[tokio::test]
async fn a_cluster_without_tls_is_refused_by_require_and_reached_in_the_clear_by_prefer() {
    let Some(cluster) = ThrowawayCluster::start(false) else {
        return;
    };

    let refused = refusal(open(&cluster.url("postgres", "127.0.0.1", "sslmode=require")).await);
    assert!(
        refused.contains("sslmode=require but the PostgreSQL server does not offer TLS"),
        "{refused}"
    );

    let store = open(&cluster.url("postgres", "127.0.0.1", "sslmode=prefer"))
        .await
        .unwrap();
    store.check_health().await.unwrap();
    assert!(!session_is_encrypted(&store).await);
}
