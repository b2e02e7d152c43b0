//! What `payments webhooks verify` checks: the raw body (a file, or stdin with `-`) and the request's
//! headers, from flags or from a captured headers file.

use std::io::Read as _;
use std::path::Path;

use crate::report::failure;

/// The most a body or headers file may hold: webhook bodies are a few hundred bytes, and the listener and
/// the service refuse more than 1 MiB.
const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// Reads the raw body from `path`, or from stdin when `path` is `-`, byte for byte.
///
/// # Errors
/// `io_error` when it cannot be read, or holds more than 1 MiB.
pub(super) fn read_body(path: &Path) -> anyhow::Result<Vec<u8>> {
    read_limited(path, "body")
}

/// The headers of a captured request: one `Name: value` per line (as `curl -D`, a proxy log or a browser's
/// "copy request headers" give them; a request or status line and blank lines are skipped), or a JSON
/// object of names to string values. Names keep their case; the verifier compares them case-insensitively.
///
/// # Errors
/// `io_error` for an unreadable file, `invalid_headers` for one that holds neither form.
pub(super) fn read_headers(path: &Path) -> anyhow::Result<Vec<(String, String)>> {
    let bytes = read_limited(path, "headers")?;
    let text = String::from_utf8(bytes).map_err(|_| {
        failure(
            "invalid_headers",
            format!("the headers file {} is not UTF-8 text", path.display()),
        )
    })?;
    if text.trim_start().starts_with('{') {
        return json_headers(&text, path);
    }
    let headers: Vec<(String, String)> = text
        .lines()
        .filter_map(|line| {
            let (name, value) = line.split_once(':')?;
            let name = name.trim();
            // `POST /hook HTTP/1.1` and `HTTP/1.1 200 OK` have a space (or no colon) before any colon.
            let is_name = !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
            is_name.then(|| (name.to_owned(), value.trim().to_owned()))
        })
        .collect();
    if headers.is_empty() {
        return Err(failure(
            "invalid_headers",
            format!("the headers file {} has no `Name: value` line", path.display()),
        ));
    }
    Ok(headers)
}

/// `{"X-Service-Signature": "sha256=...", ...}`; only the position of a parse error is shown, since the
/// file holds signatures.
fn json_headers(text: &str, path: &Path) -> anyhow::Result<Vec<(String, String)>> {
    let object: serde_json::Map<String, serde_json::Value> = serde_json::from_str(text).map_err(|error| {
        failure(
            "invalid_headers",
            format!(
                "the headers file {} is not a JSON object of names to strings (line {}, column {})",
                path.display(),
                error.line(),
                error.column()
            ),
        )
    })?;
    object
        .into_iter()
        .map(|(name, value)| match value {
            serde_json::Value::String(value) => Ok((name, value)),
            serde_json::Value::Number(number) => Ok((name, number.to_string())),
            _ => Err(failure(
                "invalid_headers",
                format!("the header {name:?} in {} is not a string", path.display()),
            )),
        })
        .collect()
}

fn read_limited(path: &Path, what: &str) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let read = if path == Path::new("-") {
        std::io::stdin()
            .lock()
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|file| file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
    };
    let source = if path == Path::new("-") {
        "stdin".to_owned()
    } else {
        path.display().to_string()
    };
    read.map_err(|error| {
        failure(
            "io_error",
            format!("cannot read the {what} from {source}: {error}"),
        )
    })?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(failure(
            "io_error",
            format!("the {what} in {source} is over {MAX_FILE_BYTES} bytes; no webhook is that large"),
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::read_headers;

    fn headers_of(text: &str) -> Vec<(String, String)> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("headers.txt");
        std::fs::write(&path, text).unwrap();
        read_headers(Path::new(&path)).unwrap()
    }

    #[test]
    fn a_curl_dump_skips_the_request_line_and_keeps_every_header() {
        let headers = headers_of(
            "POST /hook HTTP/1.1\r\nX-Service-Signature: sha256=ab:cd\r\nwebhook-id: msg_1\r\n\r\n",
        );

        assert_eq!(
            headers,
            vec![
                ("X-Service-Signature".to_owned(), "sha256=ab:cd".to_owned()),
                ("webhook-id".to_owned(), "msg_1".to_owned()),
            ]
        );
    }

    #[test]
    fn a_json_object_is_read_too() {
        let headers = headers_of(r#"{"webhook-timestamp": 1760000000, "webhook-id": "msg_2"}"#);

        assert_eq!(headers.len(), 2);
        assert!(headers.contains(&("webhook-timestamp".to_owned(), "1760000000".to_owned())));
    }
}
