//! The `payments` binary against a spawned server: inventory commands, import, ping, error output.
//! One test binary, so the server is linked once.

// Unix only: the tests check file modes (0600 session file, a refused group-readable key file).
#[cfg(test)]
#[cfg(unix)]
mod admin;
#[cfg(test)]
mod deposit_transfers;
#[cfg(test)]
mod dev_flow;
#[cfg(test)]
mod dev_server_restart;
#[cfg(test)]
mod errors;
mod export_ledger;
#[cfg(test)]
mod forward_compat;
#[cfg(test)]
mod helpers;
mod import;
mod inventory;
mod ping_and_errors;
#[cfg(test)]
mod readme_dev_flow;
mod receipts;
#[cfg(test)]
mod reserve;
mod settings;
#[cfg(test)]
mod simulate_payment;
#[cfg(test)]
#[cfg(unix)]
mod subscribe_anvil;
#[cfg(test)]
mod subscriptions;
#[cfg(test)]
mod test_fund;
#[cfg(test)]
mod users;
#[cfg(test)]
mod webhook_endpoints;
#[cfg(test)]
mod webhooks_listen;
#[cfg(test)]
mod webhooks_listen_endpoint;
#[cfg(test)]
mod webhooks_listen_events;
