//! The server's layers, checked: every `crate::` path in `src/` must point down (or sideways inside its own
//! folder), never up.
//!
//! ```text
//! main.rs, lib.rs ─► cli/ ─► app/ ─► api/ ─► http/ ─► services/ ─► chain/, runtime/ ─► store, domain, secret
//! ```
//!
//! A file's layer is its first folder under `src/` (or its own name for a top-level file); a path's layer is its
//! first segment after `crate::`. `store/`, `domain/` and `secret.rs` are the lowest layer and are not read here:
//! they are becoming their own crates (issue 22), where Cargo enforces the direction.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");

/// The rank of a layer: a file may use paths of its own rank or a larger one. `None`: not a known layer.
fn rank(layer: &str) -> Option<u8> {
    Some(match layer {
        "main.rs" | "lib.rs" | "testing" => 0,
        "cli" => 1,
        "app" | "App" => 2,
        "api" => 3,
        "http" => 4,
        "services" => 5,
        // `metrics` is the crate-root alias of `runtime::metrics` the store still uses.
        "chain" | "runtime" | "metrics" => 6,
        "store" | "domain" | "secret" => 7,
        // The library's public re-exports at the crate root (types, and the functions below).
        "serve" | "shutdown_signal" | "init_tracing" | "raise_open_file_limit" | "decide_dev_mode" => 0,
        _ if layer.starts_with(char::is_uppercase) => 0,
        _ => return None,
    })
}

/// Crates a layer must not use: services never see HTTP, wire documentation or GraphQL.
fn forbidden_crates(layer: &str) -> &'static [&'static str] {
    match layer {
        "services" | "chain" | "runtime" => &["hyper::", "http_body_util::", "utoipa::", "async_graphql::"],
        _ => &[],
    }
}

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            found.push(path);
        }
    }
}

/// The layers a line of code names through `crate::` (`crate::a::b`, `crate::{a, b::c}`), comments skipped.
fn named_layers(line: &str) -> Vec<String> {
    let code = line.split("//").next().unwrap_or_default();
    let mut layers = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let preceded = rest[..at].chars().last();
        rest = &rest[at + "crate::".len()..];
        if preceded.is_some_and(|c| c == '$' || c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            layers.extend(group.split(',').map(|item| first_segment(item.trim())));
        } else {
            layers.push(first_segment(rest));
        }
    }
    layers.retain(|layer| !layer.is_empty() && layer != "self");
    layers
}

fn first_segment(path: &str) -> String {
    path.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// Every arrow that points up a layer or into an unknown one, and every forbidden crate, as one line each.
fn violations(src: &Path) -> BTreeSet<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut found = BTreeSet::new();
    for file in files {
        let relative = file
            .strip_prefix(src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let layer = match relative.split_once('/') {
            Some((folder, _)) => folder.to_owned(),
            None if relative == "main.rs" || relative == "lib.rs" => relative.clone(),
            None => relative.trim_end_matches(".rs").to_owned(),
        };
        if matches!(layer.as_str(), "store" | "domain" | "secret") {
            continue;
        }
        let Some(own) = rank(&layer) else {
            found.insert(format!("src/{relative}: the folder `{layer}` is no known layer"));
            continue;
        };
        let text = fs::read_to_string(&file).unwrap();
        for (number, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for named in named_layers(line) {
                match rank(&named) {
                    None => {
                        found.insert(format!(
                            "src/{relative}:{}: {layer} -> {named}: no known layer",
                            number + 1
                        ));
                    }
                    Some(theirs) if theirs < own => {
                        found.insert(format!(
                            "src/{relative}:{}: {layer} -> {named} points up",
                            number + 1
                        ));
                    }
                    Some(_) => {}
                }
            }
            for forbidden in forbidden_crates(&layer) {
                if line.contains(forbidden) {
                    found.insert(format!("src/{relative}:{}: {layer} uses {forbidden}", number + 1));
                }
            }
        }
    }
    found
}

#[test]
fn every_crate_path_in_the_server_points_down_a_layer() {
    let found = violations(Path::new(SRC));
    assert!(
        found.is_empty(),
        "{} arrows break the layering (main -> cli -> app -> api -> http -> services -> chain, runtime):\n{}",
        found.len(),
        found.into_iter().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn paths_are_read_from_uses_groups_and_inline_paths_but_not_comments() {
    assert_eq!(named_layers("use crate::http::context::Ctx;"), ["http"]);
    assert_eq!(named_layers("use crate::{app, http::body};"), ["app", "http"]);
    assert_eq!(
        named_layers("    crate::services::recurring::start(x) // crate::app"),
        ["services"]
    );
    assert_eq!(
        named_layers("pub(crate) fn f() -> $crate::x"),
        Vec::<String>::new()
    );
}

#[test]
fn an_arrow_up_a_layer_is_reported_with_its_file_and_layers() {
    let dir = std::env::temp_dir().join(format!("architecture-test-{}", std::process::id()));
    fs::create_dir_all(dir.join("http")).unwrap();
    fs::write(
        dir.join("http/context.rs"),
        "use crate::app::AppState;\nuse crate::services::auth;\n",
    )
    .unwrap();
    fs::create_dir_all(dir.join("services")).unwrap();
    fs::write(dir.join("services/users.rs"), "use hyper::StatusCode;\n").unwrap();

    let found = violations(&dir);
    fs::remove_dir_all(&dir).unwrap();

    assert_eq!(
        found.into_iter().collect::<Vec<_>>(),
        [
            "src/http/context.rs:1: http -> app points up",
            "src/services/users.rs:1: services uses hyper::",
        ]
    );
}
