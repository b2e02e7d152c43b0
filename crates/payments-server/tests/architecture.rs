//! The server's layers, checked: every `crate::` path in `src/` must point down (or sideways inside its own
//! folder), never up.
//!
//! ```text
//! main.rs, lib.rs ─► cli/ ─► app/ ─► api/ ─► http/ ─► services/ ─► chain/, runtime/ ─► store, domain, secret
//! ```
//!
//! A file's layer is its first folder under `src/` (or its own name for a top-level file); a path's layer is its
//! first segment after `crate::`. The store and the domain are their own crates (`payments-store`,
//! `payments-domain`), where Cargo enforces the direction; `store.rs`, `domain.rs` and `secret.rs` are only
//! their re-export modules, which bind the store's receipt use cases and `domain::receipt` to the services'
//! refusal types, so they are not read here.

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
        "chain" | "runtime" => 6,
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
        if matches!(relative.as_str(), "store.rs" | "domain.rs" | "secret.rs") {
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

/// What `payments-store` must not depend on: the server, metrics, HTTP or the API's documentation.
const STORE_FORBIDDEN_DEPENDENCIES: &[&str] = &[
    "payments-server",
    "metrics",
    "metrics-exporter-prometheus",
    "hyper",
    "hyper-util",
    "http",
    "http-body-util",
    "utoipa",
    "async-graphql",
];

/// The names in the `[dependencies]` table of a manifest (`name = …` or `name.workspace = true`).
fn dependency_names(manifest: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut inside = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == "[dependencies]";
        } else if inside && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.']).next().unwrap_or_default().trim();
            names.push(name.to_owned());
        }
    }
    names
}

#[test]
fn the_store_crate_depends_on_no_server_metrics_or_http_and_builds_no_service_error() {
    let store = Path::new(env!("CARGO_MANIFEST_DIR")).join("../payments-store");
    let manifest = fs::read_to_string(store.join("Cargo.toml")).unwrap();
    let names = dependency_names(&manifest);
    assert!(names.iter().any(|name| name == "payments-domain"), "{names:?}");
    let forbidden: Vec<&String> = names
        .iter()
        .filter(|name| STORE_FORBIDDEN_DEPENDENCIES.contains(&name.as_str()))
        .collect();
    assert!(forbidden.is_empty(), "payments-store depends on {forbidden:?}");

    let mut files = Vec::new();
    rust_files(&store.join("src"), &mut files);
    let named: Vec<String> = files
        .iter()
        .flat_map(|file| {
            let text = fs::read_to_string(file).unwrap();
            ["ReceiptError", "OrderError", "metrics::", "hyper::"]
                .into_iter()
                .filter(move |word| text.contains(word))
                .map(move |word| format!("{}: {word}", file.display()))
        })
        .collect();
    assert!(named.is_empty(), "the store names {named:?}");
}

#[test]
fn dependency_names_are_read_from_the_dependencies_table_only() {
    let manifest = "[package]\nname = \"x\"\n[dependencies]\n# why\nhyper.workspace = true\nserde = { workspace = true }\n\n[dev-dependencies]\nmetrics = \"1\"\n";

    assert_eq!(dependency_names(manifest), ["hyper", "serde"]);
}

/// Only the server's `api/` knows the HTTP API's documentation: the pure core and the server's domain name no
/// OpenAPI crate (their JSON forms are documented by `api/openapi/core_types.rs` and `api/wire/`).
#[test]
fn the_core_and_domain_crates_do_not_depend_on_utoipa() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for name in ["payments-core", "payments-domain"] {
        let manifest = fs::read_to_string(crates.join(name).join("Cargo.toml")).unwrap();
        assert!(
            !manifest.contains("utoipa"),
            "{name}/Cargo.toml names utoipa; its schemas belong in payments-server's api/"
        );
        let mut files = Vec::new();
        rust_files(&crates.join(name).join("src"), &mut files);
        for file in files {
            let text = fs::read_to_string(&file).unwrap();
            assert!(!text.contains("utoipa"), "{} names utoipa", file.display());
        }
    }
}

/// The `payments-domain` types with serde, and what each is stored as. The domain's serde is for storage only:
/// every HTTP, GraphQL or CLI answer is written by a wire type of the server (`api/wire/`, `api/handlers/*/view.rs`)
/// from the domain's record, so an answer and a stored form can change apart.
const STORED_SERDE: &[(&str, &str)] = &[
    (
        "ChainContracts",
        "the --chain-contracts file that `chain bootstrap` prints",
    ),
    ("BillingAddress", "receipts.options_json"),
    ("ReceiptOptions", "receipts.options_json"),
    ("ShippingConfig", "inventory_items.shipping_config_json"),
    ("Dimensions", "inside ShippingConfig"),
    ("DimensionUnit", "inside ShippingConfig"),
    ("ShippingClass", "inside ShippingConfig"),
    ("ShippingMethod", "inside ShippingConfig"),
    (
        "ImageMeta",
        "the image metadata a product read aggregates as JSON",
    ),
    (
        "ContentHash",
        "inside ImageMeta, and the JSON list of hashes an image lookup binds",
    ),
];

/// The types of `source` that derive or implement `Serialize` or `Deserialize`.
fn serde_types(source: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = source;
    while let Some(start) = rest.find("#[derive(") {
        let after = &rest[start..];
        let end = after.find(")]").unwrap_or(after.len());
        rest = &after[end..];
        if after[..end].contains("Serialize") || after[..end].contains("Deserialize") {
            names.push(next_type_name(rest));
        }
    }
    for marker in ["Serialize for ", "Deserialize<'de> for "] {
        for (at, _) in source.match_indices(marker) {
            names.push(identifier(&source[at + marker.len()..]));
        }
    }
    names
}

/// The name of the first `struct` or `enum` in `text`.
fn next_type_name(text: &str) -> String {
    let at = ["struct ", "enum "]
        .into_iter()
        .filter_map(|keyword| text.find(keyword).map(|at| at + keyword.len()))
        .min()
        .unwrap_or(text.len());
    identifier(&text[at..])
}

fn identifier(text: &str) -> String {
    text.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

#[test]
fn the_domain_derives_serde_only_for_what_is_stored() {
    let domain = Path::new(env!("CARGO_MANIFEST_DIR")).join("../payments-domain/src");
    let mut files = Vec::new();
    rust_files(&domain, &mut files);
    let unlisted: Vec<String> = files
        .iter()
        .flat_map(|file| {
            let names = serde_types(&fs::read_to_string(file).unwrap());
            names.into_iter().map(move |name| (file.clone(), name))
        })
        .filter(|(_, name)| !STORED_SERDE.iter().any(|(stored, _)| stored == name))
        .map(|(file, name)| format!("{}: {name}", file.display()))
        .collect();
    assert!(
        unlisted.is_empty(),
        "payments-domain serializes {unlisted:?}: write answers with a wire type in the server's api/, \
         or list a stored type in STORED_SERDE with where it is stored"
    );
}

#[test]
fn serde_types_are_found_by_derive_and_by_impl() {
    let source = "#[derive(Debug, Clone)]\npub struct Plain;\n\
                  /// Doc.\n#[derive(Debug,\n    Serialize)]\n#[serde(transparent)]\npub struct Shown(String);\n\
                  #[derive(Deserialize)]\nenum Stored { A }\n\
                  impl Serialize for Manual {}\nimpl<'de> Deserialize<'de> for Read {}\n";

    assert_eq!(serde_types(source), ["Shown", "Stored", "Manual", "Read"]);
}
