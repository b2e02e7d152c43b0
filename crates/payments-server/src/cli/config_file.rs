//! `--config FILE` (or `PAYMENTS_CONFIG`): a TOML file whose keys are the serve flags' long names, in their
//! kebab-case spelling (`chain-rpc-url = "http://…"`, `platform-admins = ["0x…", "0x…"]`).
//!
//! Each key becomes the default value of the flag of the same name before the command line is parsed, so the
//! precedence is clap's own: a flag beats its `PAYMENTS_*` environment variable, which beats the file, which
//! beats the built-in default. Nothing here names a flag: a flag added to `serve` is a file key at once.
//! Flags whose environment values are hidden (`hide_env_values`: secrets, URLs that may carry credentials)
//! are never echoed, not even in an error about their value.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::{Arg, ArgAction, Command};

/// The flag naming the file, and its environment variable.
pub(crate) const CONFIG_FLAG: &str = "config";
/// `PAYMENTS_CONFIG`: the file when no `--config` is given.
pub(crate) const CONFIG_ENV: &str = "PAYMENTS_CONFIG";
/// Long names that are not settings.
const NOT_SETTINGS: [&str; 3] = ["help", "version", CONFIG_FLAG];

/// A read config file: each key with its values spelled as on the command line.
#[derive(Debug, Clone)]
pub(crate) struct ConfigFile {
    path: PathBuf,
    entries: BTreeMap<String, Vec<String>>,
}

impl ConfigFile {
    /// The file named by the last `--config FILE` / `--config=FILE` before any `--`, else by
    /// `PAYMENTS_CONFIG`. Found before clap parses, because the file changes the command that parses.
    pub(crate) fn locate(args: &[OsString]) -> Option<PathBuf> {
        let flag = format!("--{CONFIG_FLAG}");
        let with_equals = format!("--{CONFIG_FLAG}=");
        let mut found = None;
        let mut words = args.iter().skip(1);
        while let Some(word) = words.next() {
            let Some(word) = word.to_str() else { continue };
            if word == "--" {
                break;
            }
            if word == flag {
                found = words.next().map(PathBuf::from);
            } else if let Some(path) = word.strip_prefix(&with_equals) {
                found = Some(PathBuf::from(path));
            }
        }
        found.or_else(|| {
            std::env::var_os(CONFIG_ENV)
                .filter(|path| !path.is_empty())
                .map(PathBuf::from)
        })
    }

    /// Reads and parses the file.
    pub(crate) fn read(path: &Path) -> anyhow::Result<ConfigFile> {
        let text = std::fs::read_to_string(path)
            .map_err(|error| anyhow::anyhow!("reading the config file {}: {error}", path.display()))?;
        ConfigFile::parse(path, &text)
    }

    /// Parses TOML text: a flat table of strings, integers, floats, booleans and arrays of those.
    pub(crate) fn parse(path: &Path, text: &str) -> anyhow::Result<ConfigFile> {
        let table: toml::Table = toml::from_str(text).map_err(|error| {
            let line = error
                .span()
                .map(|span| text[..span.start.min(text.len())].lines().count().max(1));
            let message = error.message().trim().to_owned();
            match line {
                Some(line) => anyhow::anyhow!("config file {} line {line}: {message}", path.display()),
                None => anyhow::anyhow!("config file {}: {message}", path.display()),
            }
        })?;
        let mut entries = BTreeMap::new();
        for (key, value) in table {
            let values = match value {
                toml::Value::Array(items) => items
                    .into_iter()
                    .map(|item| scalar(&item).ok_or_else(|| not_a_setting(path, &key)))
                    .collect::<anyhow::Result<Vec<_>>>()?,
                other => vec![scalar(&other).ok_or_else(|| not_a_setting(path, &key))?],
            };
            entries.insert(key, values);
        }
        Ok(ConfigFile {
            path: path.to_path_buf(),
            entries,
        })
    }

    /// The file's path.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the file sets the flag with this long name.
    pub(crate) fn sets(&self, long: &str) -> bool {
        self.entries.contains_key(long)
    }

    /// Checks every key against the settings of `command` (its own flags: the serve flags) and every value
    /// with the flag's own parser, then makes each value the default of every flag of that name in the
    /// command and its subcommands (so `keys --db` and `config check` read the same file).
    pub(crate) fn apply(&self, command: Command) -> anyhow::Result<Command> {
        let settings: Vec<&Arg> = command
            .get_arguments()
            .filter(|arg| arg.get_long().is_some_and(|long| !NOT_SETTINGS.contains(&long)))
            .collect();
        for (key, values) in &self.entries {
            let Some(arg) = settings.iter().find(|arg| arg.get_long() == Some(key.as_str())) else {
                return Err(self.unknown_key(key, &settings));
            };
            self.check_value(&command, arg, key, values)?;
        }
        Ok(with_defaults(command, &self.entries))
    }

    fn unknown_key(&self, key: &str, settings: &[&Arg]) -> anyhow::Error {
        let known: Vec<&str> = settings.iter().filter_map(|arg| arg.get_long()).collect();
        let kebab = key.replace('_', "-");
        let hint = if kebab != key && known.contains(&kebab.as_str()) {
            format!(" (keys are spelled like the flags: `{kebab}`)")
        } else {
            String::new()
        };
        anyhow::anyhow!(
            "config file {}: unknown key `{key}`{hint}; the keys are the serve flags' names: {}",
            self.path.display(),
            known.join(", ")
        )
    }

    /// Parses the values with `command` itself (environment variables ignored), given only this flag: the
    /// same parser, delimiter and arity rules as on the command line.
    fn check_value(&self, command: &Command, arg: &Arg, key: &str, values: &[String]) -> anyhow::Result<()> {
        let secret = arg.is_hide_env_values_set();
        let invalid =
            |detail: String| anyhow::anyhow!("config file {}: `{key}`: {detail}", self.path.display());
        if matches!(arg.get_action(), ArgAction::SetTrue | ArgAction::SetFalse) {
            return match values {
                [value] if value == "true" || value == "false" => Ok(()),
                _ => Err(invalid("must be true or false".to_owned())),
            };
        }
        let probe = command
            .clone()
            .no_binary_name(true)
            .mut_args(|arg| arg.env(None::<&str>));
        let words = values.iter().map(|value| format!("--{key}={value}"));
        match probe.try_get_matches_from(words) {
            Ok(_) => Ok(()),
            Err(_) if secret => Err(invalid(
                "invalid value (not shown: the setting is secret)".to_owned(),
            )),
            Err(error) => {
                let rendered = error.to_string();
                let first = rendered.lines().next().unwrap_or_default();
                Err(invalid(first.trim_start_matches("error: ").to_owned()))
            }
        }
    }
}

/// The TOML scalar as a command-line word; `None` for tables and dates, which no flag takes.
fn scalar(value: &toml::Value) -> Option<String> {
    match value {
        toml::Value::String(text) => Some(text.clone()),
        toml::Value::Integer(number) => Some(number.to_string()),
        toml::Value::Float(number) => Some(number.to_string()),
        toml::Value::Boolean(flag) => Some(flag.to_string()),
        toml::Value::Datetime(_) | toml::Value::Array(_) | toml::Value::Table(_) => None,
    }
}

fn not_a_setting(path: &Path, key: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "config file {}: `{key}` must be a string, number, boolean or an array of those (the file is one flat \
         table of flag names)",
        path.display()
    )
}

fn with_defaults(command: Command, entries: &BTreeMap<String, Vec<String>>) -> Command {
    command
        .mut_args(|arg| {
            let values = arg.get_long().and_then(|long| entries.get(long)).cloned();
            match values {
                Some(values) => arg.default_values(values),
                None => arg,
            }
        })
        .mut_subcommands(|subcommand| with_defaults(subcommand, entries))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &[&str]) -> Vec<OsString> {
        line.iter().map(OsString::from).collect()
    }

    #[test]
    fn the_last_config_flag_before_a_double_dash_names_the_file() {
        let both = words(&[
            "payments-server",
            "--config",
            "a.toml",
            "config",
            "check",
            "--config=b.toml",
        ]);
        let after_dashes = words(&["payments-server", "--config=a.toml", "--", "--config", "b.toml"]);

        assert_eq!(ConfigFile::locate(&both), Some(PathBuf::from("b.toml")));
        assert_eq!(ConfigFile::locate(&after_dashes), Some(PathBuf::from("a.toml")));
    }

    #[test]
    fn values_are_spelled_as_on_the_command_line_and_tables_are_refused() {
        let file = ConfigFile::parse(
            Path::new("f.toml"),
            "listen = \"127.0.0.1:1\"\nkey-cache-ms = 5\ndev = false\nplatform-admins = [\"0x1\", \"0x2\"]\n",
        )
        .unwrap();
        let nested = ConfigFile::parse(Path::new("f.toml"), "[server]\nlisten = \"x\"\n").unwrap_err();
        let broken = ConfigFile::parse(Path::new("f.toml"), "listen = \n").unwrap_err();

        assert_eq!(file.entries["key-cache-ms"], ["5"]);
        assert_eq!(file.entries["dev"], ["false"]);
        assert_eq!(file.entries["platform-admins"], ["0x1", "0x2"]);
        assert!(
            nested.to_string().contains("`server` must be a string"),
            "{nested}"
        );
        assert!(
            broken.to_string().starts_with("config file f.toml line 1: "),
            "{broken}"
        );
    }
}
