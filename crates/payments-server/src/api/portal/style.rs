//! The page's one stylesheet and the Content-Security-Policy that allows exactly it.

use std::sync::LazyLock;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use sha2::{Digest, Sha256};

/// Inline in a `<style>` element; allowed by its hash, so no `'unsafe-inline'` is needed.
pub(crate) const CSS: &str = r#"
:root{color-scheme:light;--ink:#17212b;--muted:#4b5866;--line:#dde3ea;--bg:#f3f5f8;--card:#fff;
--accent:#0b57d0;--good:#146c2e;--good-bg:#e6f4ea;--bad:#a50e0e;--bad-bg:#fce8e6;--warn:#7a4b00;
--warn-bg:#fef3d7;--info:#0b57d0;--info-bg:#e8f0fe;--neutral-bg:#eceff3}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--ink);
font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:34rem;margin:0 auto;padding:1rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:14px;padding:1.25rem;margin-bottom:1rem}
header.card{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem}
.brand{margin:0;font-size:1.35rem;font-weight:700;overflow-wrap:anywhere}
.receipt-id{margin:.1rem 0 0;color:var(--muted);font-size:.85rem;overflow-wrap:anywhere}
.badge{display:inline-block;padding:.2rem .7rem;border-radius:999px;font-size:.85rem;font-weight:600;
white-space:nowrap}
.badge.info{background:var(--info-bg);color:var(--info)}
.badge.good{background:var(--good-bg);color:var(--good)}
.badge.bad{background:var(--bad-bg);color:var(--bad)}
.badge.warn{background:var(--warn-bg);color:var(--warn)}
.badge.neutral{background:var(--neutral-bg);color:var(--ink)}
h1{font-size:1.1rem;margin:0 0 .75rem}
h2{font-size:1rem;margin:0 0 .5rem}
table{width:100%;border-collapse:collapse}
th,td{padding:.5rem 0;text-align:left;vertical-align:top;border-bottom:1px solid var(--line)}
thead th{font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);font-weight:600}
td.label{overflow-wrap:anywhere;padding-right:.75rem}
.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
td.qty{padding-right:.75rem;color:var(--muted)}
tfoot th{font-weight:400;color:var(--muted)}
tfoot tr.total th,tfoot tr.total td{font-weight:700;color:var(--ink);font-size:1.1rem;border-bottom:0}
.amount{font-size:1.6rem;font-weight:700;margin:0;font-variant-numeric:tabular-nums}
.amount-usd{margin:0 0 1rem;color:var(--muted)}
.qr{display:block;width:min(15rem,100%);margin:0 auto 1rem;border:1px solid var(--line);border-radius:8px}
.qr svg{display:block;width:100%;height:auto}
.button{display:block;text-align:center;background:var(--accent);color:#fff;text-decoration:none;
font-weight:600;padding:.8rem 1rem;border-radius:10px;margin-bottom:1rem}
button.button{border:0;width:100%;font:inherit;font-weight:600;cursor:pointer}
.button:focus-visible,a:focus-visible{outline:3px solid #f9ab00;outline-offset:2px}
dl{margin:0;display:grid;grid-template-columns:max-content 1fr;gap:.35rem .9rem}
dt{color:var(--muted);font-size:.9rem}
dd{margin:0;min-width:0}
code{font:.85rem/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;overflow-wrap:anywhere;
word-break:break-all}
.uri{display:block;margin-top:1rem;font-size:.9rem}
.note{margin:1rem 0 0;font-size:.9rem;color:var(--muted)}
.notice{border-radius:10px;padding:.9rem 1rem;margin-bottom:1rem}
.notice h2{margin-bottom:.25rem}
.notice p{margin:.25rem 0}
.notice.good{background:var(--good-bg);color:var(--good)}
.notice.bad{background:var(--bad-bg);color:var(--bad)}
.notice.warn{background:var(--warn-bg);color:var(--warn)}
.notice.info{background:var(--info-bg);color:var(--info)}
footer{text-align:center;color:var(--muted);font-size:.8rem;padding:0 1rem 2rem}
.checkout{margin-bottom:1rem}
.checkout-account{font-size:.85rem;color:var(--muted);overflow-wrap:anywhere;margin:0 0 .5rem}
.checkout-message{margin:0 0 1rem}
.checkout-message:empty{display:none}
.checkout-message.good{color:var(--good)}.checkout-message.warn{color:var(--warn)}.checkout-message.bad{color:var(--bad)}
.wallet-list{list-style:none;margin:0;padding:0}
.button.secondary{background:var(--card);color:var(--accent);border:1px solid var(--accent)}
button.copy{margin-left:.5rem;padding:.1rem .5rem;font-size:.8rem;border:1px solid var(--line);border-radius:6px;
background:var(--card);color:var(--accent);cursor:pointer}
[hidden]{display:none!important}
@media (max-width:380px){dl{grid-template-columns:1fr}dt{margin-top:.4rem}}
"#;

/// `Content-Security-Policy` of the portal's pages: only [`CSS`] (by hash), data-URL images and the server's own
/// script (`/portal/assets/checkout.js`, same origin) apply; the script may talk to this origin alone; no inline
/// script, no framing, no form posts elsewhere, no `<base>`.
pub(crate) static CONTENT_SECURITY_POLICY: LazyLock<String> = LazyLock::new(|| {
    let hash = STANDARD.encode(Sha256::digest(CSS.as_bytes()));
    format!(
        "default-src 'none'; style-src 'sha256-{hash}'; img-src data:; script-src 'self'; \
         connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_allows_the_stylesheet_by_hash_and_only_same_origin_script() {
        let policy = CONTENT_SECURITY_POLICY.as_str();
        assert!(
            policy.starts_with("default-src 'none'; style-src 'sha256-"),
            "{policy}"
        );
        assert!(!policy.contains("unsafe"));
        assert!(
            policy.contains("; script-src 'self'; connect-src 'self';"),
            "{policy}"
        );
    }
}
