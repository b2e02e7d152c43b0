//! The `payments` binary against a spawned server: inventory commands, import, ping, error output.
//! One test binary, so the server is linked once.

#[cfg(test)]
mod helpers;
mod import;
mod inventory;
mod ping_and_errors;
mod receipts;
mod settings;
#[cfg(test)]
mod webhooks_listen;
