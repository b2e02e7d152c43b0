//! The temporary webhook endpoint of `payments webhooks listen`, as `stripe listen` has one: registered for
//! the merchant's events when the listener starts, pointing at the listener's loopback URL, and deleted when
//! it stops.
//!
//! A listener that crashes (or is killed with SIGKILL) cannot delete its endpoint. The endpoint is then
//! recognisable by its description, `payments webhooks listen (temporary) <host> <pid>`, and the next
//! listener started on the same host deletes every such endpoint whose process is gone. Whatever is left
//! (another machine's crash) fails its deliveries and is disabled by the service after 5 days like any
//! failing endpoint; docs/webhooks.md says why there is no server-side expiry.

use payments_client::{Client, EndpointFields, Error as ClientError, WebhookEndpoint};

use crate::report::failure_with_hint;

/// The start of every temporary endpoint's description; the host and the process id follow.
const DESCRIPTION_PREFIX: &str = "payments webhooks listen (temporary)";
/// Host names are short; a long one is cut so the description stays well under the service's 256.
const MAX_HOST_CHARS: usize = 64;

/// What to register: the service, and which events.
#[derive(Debug)]
pub(super) struct EndpointPlan {
    pub(super) client: Client,
    /// The service's base URL, for the messages.
    pub(super) service_url: String,
    /// Event types or patterns (`*` by default).
    pub(super) events: Vec<String>,
}

/// A registered endpoint, to delete on exit.
#[derive(Debug)]
pub(super) struct TemporaryEndpoint {
    client: Client,
    /// `we_...`.
    pub(super) id: String,
    /// `whsec_...`: the endpoint's signing secret, shown by the service on creation only.
    pub(super) secret: String,
}

impl EndpointPlan {
    /// Deletes what crashed listeners of this host left behind, then registers an endpoint for
    /// `listener_url`.
    ///
    /// # Errors
    /// The service's refusal, explained when it is the loopback URL a production server refuses; any
    /// transport failure.
    pub(super) async fn register(self, listener_url: &str) -> anyhow::Result<TemporaryEndpoint> {
        let host = host_name();
        let removed = remove_leftovers(&self.client, &host).await;
        if removed > 0 {
            eprintln!("deleted {removed} temporary endpoint(s) left by listeners of this host that are gone");
        }
        let mut fields = EndpointFields::new(listener_url, self.events);
        fields.description = Some(description(&host, std::process::id()));
        let endpoint = self
            .client
            .create_webhook_endpoint(&fields)
            .await
            .map_err(|error| explain_refusal(error, &self.service_url, listener_url))?;
        let WebhookEndpoint { id, secret, .. } = endpoint;
        let secret = secret.ok_or_else(|| {
            failure_with_hint(
                "failed",
                format!("the service created endpoint {id} but did not show its secret"),
                format!("delete it with `payments webhooks endpoints delete {id}`"),
            )
        })?;
        Ok(TemporaryEndpoint {
            client: self.client,
            id,
            secret,
        })
    }
}

impl TemporaryEndpoint {
    /// Deletes the endpoint (with its delivery log).
    ///
    /// # Errors
    /// The service's refusal or a transport failure; the endpoint then stays, and the message names it.
    pub(super) async fn delete(self) -> Result<(), ClientError> {
        self.client.delete_webhook_endpoint(&self.id).await
    }
}

/// `payments webhooks listen (temporary) <host> <pid>`.
fn description(host: &str, pid: u32) -> String {
    format!("{DESCRIPTION_PREFIX} {host} {pid}")
}

/// The process id in a temporary endpoint's description of `host`, if it is one.
fn leftover_pid(description: &str, host: &str) -> Option<u32> {
    let rest = description.strip_prefix(DESCRIPTION_PREFIX)?.strip_prefix(' ')?;
    let pid = rest.strip_prefix(host)?.strip_prefix(' ')?;
    pid.parse().ok()
}

/// Deletes the temporary endpoints of `host` whose listener process no longer runs; how many. Best effort:
/// a failure here must not stop the listener from starting.
async fn remove_leftovers(client: &Client, host: &str) -> usize {
    let Ok(endpoints) = client.webhook_endpoints().await else {
        return 0;
    };
    let own = std::process::id();
    let mut removed = 0;
    for endpoint in endpoints {
        let Some(pid) = endpoint
            .description
            .as_deref()
            .and_then(|text| leftover_pid(text, host))
        else {
            continue;
        };
        if pid != own && process_is_gone(pid) && client.delete_webhook_endpoint(&endpoint.id).await.is_ok() {
            removed += 1;
        }
    }
    removed
}

/// Whether no process `pid` runs on this host. Only Linux's `/proc` can tell; elsewhere a process is
/// assumed alive, so another listener's endpoint is never deleted by mistake.
fn process_is_gone(pid: u32) -> bool {
    let procfs = std::path::Path::new("/proc");
    procfs.join("self").exists() && !procfs.join(pid.to_string()).exists()
}

/// This machine's name, to tell its leftovers from those of listeners elsewhere sharing the merchant.
fn host_name() -> String {
    let from_kernel = std::fs::read_to_string("/proc/sys/kernel/hostname").ok();
    let name = from_kernel
        .or_else(|| std::env::var("HOSTNAME").ok())
        .or_else(|| std::env::var("COMPUTERNAME").ok())
        .unwrap_or_default();
    let name: String = name
        .trim()
        .chars()
        .filter(|c| c.is_ascii_graphic())
        .take(MAX_HOST_CHARS)
        .collect();
    if name.is_empty() {
        "localhost".to_owned()
    } else {
        name
    }
}

/// The service's refusal of the listener's URL, said plainly: only a development-mode server delivers to
/// a loopback `http://` address. Other refusals pass through as the service's own error.
fn explain_refusal(error: ClientError, service_url: &str, listener_url: &str) -> anyhow::Error {
    let refused_url = matches!(&error, ClientError::Api(api)
        if api.status == 400 && api.field.as_deref() == Some("url"));
    if !refused_url {
        return anyhow::Error::new(error);
    }
    let reason = match &error {
        ClientError::Api(api) => api.message.clone(),
        _ => String::new(),
    };
    failure_with_hint(
        "endpoint_refused",
        format!(
            "the service at {service_url} refused {listener_url} as a webhook endpoint ({reason}): only a \
             development-mode server (payments-server --dev) delivers to a loopback http:// address"
        ),
        "run the server in development mode, or start the listener with --no-endpoint and point a \
         receipt's webhook_url at a public HTTPS tunnel to it",
    )
}

#[cfg(test)]
mod tests {
    use super::{description, leftover_pid};

    #[test]
    fn a_leftover_is_recognised_by_host_and_pid_only() {
        let text = description("build-7", 4242);

        assert_eq!(text, "payments webhooks listen (temporary) build-7 4242");
        assert_eq!(leftover_pid(&text, "build-7"), Some(4242));
        assert_eq!(leftover_pid(&text, "build"), None);
        assert_eq!(leftover_pid(&text, "other-host"), None);
        assert_eq!(
            leftover_pid("payments webhooks listen (temporary) build-7 x", "build-7"),
            None
        );
        assert_eq!(leftover_pid("my production endpoint", "build-7"), None);
    }
}
