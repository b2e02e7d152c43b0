//! The binary's commands and their arguments: serve (the default), config check, backup, keys, chain, reconcile.

pub(crate) mod backup_command;
pub(crate) mod chain_args;
pub(crate) mod config_check;
pub(crate) mod config_file;
pub(crate) mod flag_tips;
pub(crate) mod keys_command;
pub(crate) mod onramp_args;
pub(crate) mod reconcile_command;
pub(crate) mod serve;
pub(crate) mod serve_args;
pub(crate) mod subscription_args;
